// Supplies what the tool-search-redis README's main snippet declares (`redisUrl`, `myTools`), so
// the smoke test runs the snippet against a real Redis: a `redis-server` from PATH on a free
// loopback port, without persistence, started by the workspace's one redis-server helper (which
// the smoke test copies into its project beside this file). verify() stops it; if the snippet
// throws or the run is killed first, it is killed when this process exits.
import { constants } from 'node:os';
import { Redis } from 'ioredis';
import { createToolSearchEngine } from 'tool-search-core';
import { createRedisStore } from 'tool-search-redis';
import { startRedisServer } from '../../internal/testing/src/redis-server.ts';

/** A thread's key, `<keyPrefix>{<threadId>}:tools` (the README's "Cluster-ready"). */
const THREAD_KEY = /^(.*)\{(.+)\}:tools$/;

export const myTools: Record<string, { description: string }> = {
  get_weather: { description: 'Current weather and a three-day forecast for a city' },
  send_email: { description: 'Send an email to a recipient' },
  create_issue: { description: 'Open an issue in a GitHub repository' },
};

// 'exit' also runs after an uncaught error; a signal ends the process without it unless handled.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => process.exit(128 + constants.signals[signal]));
}
const server = await startRedisServer({ killOnExit: true }).catch((error: unknown) => {
  throw new Error(`README harness: ${error instanceof Error ? error.message : String(error)}`);
});

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
    await server.dispose();
  }
}
