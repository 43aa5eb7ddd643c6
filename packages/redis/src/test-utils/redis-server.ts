/**
 * Starts and stops real `redis-server` processes for the tests: on a free loopback port, with
 * no persistence unless asked (then an append-only file in a temporary folder, so a restart keeps
 * the data, as a production Redis would).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** How long a starting redis-server may take to accept connections before the test fails. */
const START_TIMEOUT = 10_000;

/** Whether `redis-server` runs from PATH. */
export function hasRedisServer(): boolean {
  const result = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return result.status === 0;
}

/** A port on the loopback interface that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** A redis-server the test controls. */
export interface RedisServer {
  readonly port: number;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
  /** Stops it for good and removes its data folder. */
  dispose(): Promise<void>;
}

/** Starts a redis-server on a free port and resolves once it accepts connections. */
export async function startRedisServer(
  options: { persistent?: boolean } = {},
): Promise<RedisServer> {
  const port = await freePort();
  const directory = mkdtempSync(path.join(tmpdir(), 'tool-search-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    directory,
    '--save',
    '',
    '--appendonly',
    options.persistent ? 'yes' : 'no',
    '--appendfsync',
    'always',
  ];
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const process = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = process;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => {
        process.kill('SIGKILL');
        reject(new Error(`redis-server did not start on port ${port}:\n${output}`));
      }, START_TIMEOUT);
      process.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      process.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  };

  const stop = async (): Promise<void> => {
    const process = child;
    child = undefined;
    if (!process || process.exitCode !== null) return;
    process.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      process.once('exit', () => resolve());
      process.kill('SIGTERM');
    });
  };

  await start();
  return {
    port,
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async dispose() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
