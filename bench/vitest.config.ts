import { defineProject } from 'vitest/config';

// Tests read the workspace packages' source (the `tool-search-source` export condition), so they
// need no build; server-side (Node) resolution reads its conditions from `ssr`.
const conditions = ['tool-search-source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { name: 'bench', include: ['src/**/*.test.ts'] },
});
