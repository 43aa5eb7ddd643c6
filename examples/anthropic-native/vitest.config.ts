import { defineProject } from 'vitest/config';

export default defineProject({
  // Tests read workspace packages' src/: `ssr` covers the Node-side resolution vitest uses.
  resolve: { conditions: ['tool-search-source'] },
  ssr: { resolve: { conditions: ['tool-search-source'] } },
  test: {
    name: 'anthropic-native',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a timing: on a busy 2-core CI machine a test that drives a real agent
    // (its first imports included) can take longer than the default 5 s.
    testTimeout: 30_000,
  },
});
