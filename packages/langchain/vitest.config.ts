import { defineProject } from 'vitest/config';

// Tests read tool-search-core's source (the `tool-search-source` export condition), so they need
// no build; server-side (Node) resolution reads its conditions from `ssr`.
const conditions = ['tool-search-source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'langchain',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a timing: CI shares 2 cores, and beside a second suite a test that takes
    // 1 s when idle took 4 s (the default 5 s limit failed one). No test asserts a duration.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
