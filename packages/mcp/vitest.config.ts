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
    // One redis-server for the run (tool-search-redis's setup: with CI set it must start; on a
    // machine without redis-server the storage tests skip with a notice).
    globalSetup: ['../redis/src/test-utils/global-setup.ts'],
    // Tests spawn real MCP servers (node child processes); a slow CI machine needs the headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
