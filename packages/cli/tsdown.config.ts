import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: 'esm',
  // Node: the command reads files, spawns MCP servers and writes to a terminal. `.js` files, as
  // the package's exports name.
  platform: 'node',
  fixedExtension: false,
  dts: true,
  sourcemap: true,
  clean: true,
  deps: { neverBundle: ['tool-search-core', 'tool-search-mcp', /^gpt-tokenizer/, 'zod'] },
});
