import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['tool-search-source'] },
  test: { name: 'bench', include: ['src/**/*.test.ts'] },
});
