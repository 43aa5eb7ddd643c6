/**
 * Bounded resources with the Redis store, as figures (nothing is gated on them): 100,000
 * threads, each loading three tools through `load_tool`, from one process into a throwaway
 * `redis-server`: Redis's `used_memory` (`INFO memory`) and key count before and after, and this
 * process's heap after GC (which must not grow with the threads: their state lives in Redis).
 * Then the same threads expire by Redis's ttl: after it, no key is left.
 *
 * Usage: `pnpm bench:resources`, or `node --expose-gc ... src/resources-redis.ts
 * [--threads 100000] [--concurrency 100]`. Needs `redis-server` on PATH.
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createToolSearchEngine } from 'tool-search-core';
import { createRedisStore, recommendedIoRedisOptions } from 'tool-search-redis';
import { hasRedisServer, startRedisServer } from 'tool-search-testing/redis-server';
import { count, markdownTable, megabytes } from './format';
import { heapAfterGc, parseCount } from './resources-shared';

/** Tools each thread loads. */
const TOOLS_PER_THREAD = 3;
/** Catalog size: threads load different tools, as real ones do. */
const CATALOG_SIZE = 1_000;
/** The ttl of the expiry check: short, so the script waits for it. */
const SHORT_TTL_MS = 2_000;
/** How long past the ttl the script waits before counting keys (Redis expires lazily and in cycles). */
const EXPIRY_GRACE_MS = 3_000;

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

async function main(): Promise<void> {
  const threads = parseCount(process.argv, '--threads', 100_000);
  const concurrency = parseCount(process.argv, '--concurrency', 100);
  if (!hasRedisServer()) {
    console.log('redis-server is not on PATH: the Redis resource benchmark is skipped.');
    return;
  }
  const server = await startRedisServer();
  const client = new Redis({ port: server.port, host: '127.0.0.1', ...recommendedIoRedisOptions });
  const admin = new Redis({ port: server.port, host: '127.0.0.1' });
  try {
    const tools = Object.fromEntries(
      Array.from({ length: CATALOG_SIZE }, (_, index) => [
        `tool_${index}`,
        { description: `Tool number ${index}` },
      ]),
    );
    const ids = Object.keys(tools);
    const rows: string[][] = [];
    for (const ttl of [60 * 60_000, SHORT_TTL_MS]) {
      await admin.flushall();
      const engine = createToolSearchEngine<{ description: string }>({
        tools,
        describe: (tool, key) => ({ id: key, description: tool.description }),
        storage: createRedisStore({ client, ttl, timeout: 10_000 }),
      });
      const redisBefore = await usedMemory(admin);
      const heapBefore = heapAfterGc();
      const started = performance.now();
      for (let first = 0; first < threads; first += concurrency) {
        const batch = Array.from(
          { length: Math.min(concurrency, threads - first) },
          (_, offset) => first + offset,
        );
        await Promise.all(
          batch.map((index) => {
            const session = engine.createSession({ threadId: `thread-${index}` });
            const toolNames = Array.from(
              { length: TOOLS_PER_THREAD },
              (_, position) => ids[(index * TOOLS_PER_THREAD + position) % ids.length]!,
            );
            return session.metaTools[1]!.execute({ toolNames });
          }),
        );
      }
      const seconds = (performance.now() - started) / 1000;
      const keys = await admin.dbsize();
      const redisAfter = await usedMemory(admin);
      const heapAfter = heapAfterGc();
      let expired = 'n/a';
      if (ttl === SHORT_TTL_MS) {
        await new Promise((resolve) => setTimeout(resolve, SHORT_TTL_MS + EXPIRY_GRACE_MS));
        expired = count(await admin.dbsize());
      }
      rows.push([
        `${ttl / 1000} s`,
        count(threads),
        count(keys),
        megabytes(redisAfter - redisBefore),
        keys > 0 ? `${Math.round((redisAfter - redisBefore) / keys)}` : 'n/a',
        megabytes(heapAfter - heapBefore),
        expired,
        seconds.toFixed(1),
      ]);
    }
    console.log(
      `# ${count(threads)} threads × ${TOOLS_PER_THREAD} loaded tools in Redis (${concurrency} at a time, Node ${process.version})\n`,
    );
    console.log(
      markdownTable(
        [
          'ttl',
          'threads',
          'keys',
          'Redis used_memory growth (MB)',
          'bytes / key',
          'Node heap growth (MB)',
          'keys left after ttl',
          's',
        ],
        rows,
      ),
    );
  } finally {
    client.disconnect();
    admin.disconnect();
    await server.dispose();
  }
}

await main();
