import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/anthropic.ts', 'src/openai.ts'],
  format: 'esm',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  external: ['ai', /^tool-search-core/, /^@ai-sdk\//, 'zod'],
});
