import { defineProject } from 'vitest/config';

// Tests read the workspace packages' sources (the `tool-search-source` export condition), so they
// need no build; server-side (Node) resolution reads its conditions from `ssr`.
const conditions = ['tool-search-source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { name: 'langchain-agent', include: ['src/**/*.test.ts'] },
});
