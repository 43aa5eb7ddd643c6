import { defineProject } from 'vitest/config';

export default defineProject({
  // Tests read workspace packages' src/: `ssr` covers the Node-side resolution vitest uses.
  resolve: { conditions: ['tool-search-source'] },
  ssr: { resolve: { conditions: ['tool-search-source'] } },
  test: {
    name: 'redis',
    include: ['src/**/*.test.ts'],
    // Starts one redis-server for the run (or explains why the Redis tests skip).
    globalSetup: ['src/test-utils/global-setup.ts'],
    // Tests share that server; each uses its own key prefix, and child processes need the cores.
    fileParallelism: false,
    // Every test talks to a real Redis (some through child processes): on a busy 2-core machine
    // the default 5 s limit is too tight. A limit, not a timing: no test asserts a duration.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
