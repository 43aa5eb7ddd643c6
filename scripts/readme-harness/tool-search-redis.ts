// Supplies what the tool-search-redis README's main snippet declares (`redisUrl`, `myTools`), so
// the smoke test runs the snippet against a real Redis: a `redis-server` from PATH on a free
// loopback port, without persistence. verify() stops it; if the snippet throws or the run is
// killed first, it is killed when this process exits.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createToolSearchEngine } from 'tool-search-core';
import { createRedisStore } from 'tool-search-redis';

/** How long redis-server may take to accept connections; it takes milliseconds when idle. */
const START_TIMEOUT_MS = 10_000;
/** A thread's key, `<keyPrefix>{<threadId>}:tools` (the README's "Cluster-ready"). */
const THREAD_KEY = /^(.*)\{(.+)\}:tools$/;

export const myTools: Record<string, { description: string }> = {
  get_weather: { description: 'Current weather and a three-day forecast for a city' },
  send_email: { description: 'Send an email to a recipient' },
  create_issue: { description: 'Open an issue in a GitHub repository' },
};

const server = await startRedisServer();

export const redisUrl = `redis://127.0.0.1:${server.port}`;

/**
 * Runs after the snippet: throws unless a load went through Redis, that is the fresh server
 * holds a thread's key listing catalog tools, and a second engine on its own connection (another
 * server instance) sees that thread's tools active. Stops the server either way.
 */
export async function verify(): Promise<void> {
  const admin = new Redis(redisUrl);
  try {
    const keys = await admin.keys('*');
    const threads = keys.flatMap((key) => {
      const match = THREAD_KEY.exec(key);
      return match ? [{ key, keyPrefix: match[1]!, threadId: match[2]! }] : [];
    });
    if (threads.length === 0) {
      throw new Error(
        `README harness: the snippet left no thread in Redis (keys: ${keys.join(', ') || 'none'})`,
      );
    }
    for (const { key, keyPrefix, threadId } of threads) {
      const stored = (JSON.parse((await admin.get(key)) ?? '[]') as [string, number][]).map(
        ([id]) => id,
      );
      const anotherInstance = createToolSearchEngine({
        tools: myTools,
        describe: (tool, id) => ({ id, description: tool.description }),
        storage: createRedisStore({ client: admin, keyPrefix }),
      });
      const active = (await anotherInstance.createSession({ threadId }).activeTools()).map(
        (tool) => tool.id,
      );
      if (stored.length === 0 || stored.some((id) => !(id in myTools))) {
        throw new Error(
          `README harness: ${key} holds ${JSON.stringify(stored)}, not catalog tools`,
        );
      }
      if (JSON.stringify(active) !== JSON.stringify(stored)) {
        throw new Error(
          `README harness: a second engine sees ${JSON.stringify(active)} in thread ${threadId}, Redis holds ${JSON.stringify(stored)}`,
        );
      }
    }
  } finally {
    admin.disconnect();
    await server.stop();
  }
}

/** Starts redis-server on a free loopback port, killed at the latest when this process exits. */
async function startRedisServer(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'tool-search-redis-readme-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      directory,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const cleanUp = () => {
    child.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  };
  // 'exit' also runs after an uncaught error; a signal ends the process without it unless handled.
  process.on('exit', cleanUp);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => process.exit(128 + constants.signals[signal]));
  }
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`README harness: redis-server did not start on port ${port}:\n${output}`));
    }, START_TIMEOUT_MS);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) settle();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) =>
      settle(
        new Error(`README harness: cannot run redis-server (is it on PATH?): ${error.message}`),
      ),
    );
    child.once('exit', (code) =>
      settle(new Error(`README harness: redis-server exited with ${code}:\n${output}`)),
    );
  });
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      process.off('exit', cleanUp);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('README harness: no free port')),
      );
    });
  });
}
