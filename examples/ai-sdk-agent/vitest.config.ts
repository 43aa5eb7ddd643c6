import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['tool-search-source'] },
  test: { name: 'ai-sdk-agent', include: ['src/**/*.test.ts'] },
});
