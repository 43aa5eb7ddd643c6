import { defineProject } from 'vitest/config';

// Tests read the workspace packages' sources (the `tool-search-source` export condition), so they
// need no build; server-side (Node) resolution reads its conditions from `ssr`.
const conditions = ['tool-search-source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'langchain-agent',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a timing: on a busy 2-core CI machine a test that drives a real agent
    // (its first imports included) can take longer than the default 5 s.
    testTimeout: 30_000,
  },
});
