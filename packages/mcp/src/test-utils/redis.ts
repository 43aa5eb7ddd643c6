import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The redis-server started by tool-search-redis's global setup, or 0 when there is none. */
    redisPort: number;
  }
}

/** The test run's redis-server port; 0 when redis-server is not installed (outside CI). */
export function redisPort(): number {
  return inject('redisPort');
}
