import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  // The framework and the core are the user's own copies, never bundled.
  external: [/^langchain(\/|$)/, /^@langchain\//, /^tool-search-core(\/|$)/],
});
