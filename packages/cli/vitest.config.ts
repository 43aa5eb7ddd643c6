import { defineProject } from 'vitest/config';

// Tests read the workspace packages' source (the `tool-search-source` export condition), so they
// need no build; server-side (Node) resolution reads its conditions from `ssr`.
const conditions = ['tool-search-source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts'],
    // Tests start real MCP servers and the bin as child processes: a busy 2-core machine needs
    // the headroom. A limit, not a timing: no test asserts a duration.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
