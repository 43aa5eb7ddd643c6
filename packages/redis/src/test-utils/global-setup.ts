/**
 * Vitest global setup: one redis-server for the whole run, given to the tests as `redisPort`.
 * With `CI` set, a missing redis-server fails the run (the Redis tests must never silently skip
 * there); on a developer machine the tests skip with a notice.
 */
import type { TestProject } from 'vitest/node';
import { hasRedisServer, type RedisServer, startRedisServer } from './redis-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared redis-server's port, or 0 when there is none (the Redis tests skip). */
    redisPort: number;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (!hasRedisServer()) {
    if (process.env.CI)
      throw new Error(
        'tool-search-redis: CI is set but redis-server is not on PATH. The Redis tests must run in CI: install redis-server (apt-get install redis-server).',
      );
    console.warn(
      '\ntool-search-redis: redis-server is not on PATH, so the tests that need Redis are SKIPPED. Install redis-server to run them.\n',
    );
    project.provide('redisPort', 0);
    return;
  }
  const server: RedisServer = await startRedisServer();
  project.provide('redisPort', server.port);
  return () => server.dispose();
}
