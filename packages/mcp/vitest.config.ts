import { defineProject } from 'vitest/config';

// Tests read tool-search-core's source (the `tool-search-source` export condition), so they need
// no build; server-side (Node) resolution reads its conditions from `ssr`.
const conditions = ['tool-search-source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: 'mcp',
    include: ['src/**/*.test.ts'],
    // Tests spawn real MCP servers (node child processes); a slow CI machine needs the headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
