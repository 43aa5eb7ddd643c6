import { defineProject } from 'vitest/config';

export default defineProject({
  // Tests read workspace packages' src/: `ssr` covers the Node-side resolution vitest uses.
  resolve: { conditions: ['tool-search-source'] },
  ssr: { resolve: { conditions: ['tool-search-source'] } },
  test: {
    name: 'bench',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a timing: CI shares 2 cores, and beside a second suite a test that takes
    // 1 s when idle took 4 s (the default 5 s limit failed one). No test asserts a duration.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
