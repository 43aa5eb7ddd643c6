import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: 'esm',
  // Node: the gateway spawns processes and serves HTTP. `.js` files, as the package's exports name.
  platform: 'node',
  fixedExtension: false,
  dts: true,
  sourcemap: true,
  clean: true,
  deps: {
    neverBundle: [
      /^@modelcontextprotocol\//,
      // Imported at run time only when OTEL_* variables turn traces on.
      /^@opentelemetry\//,
      'tool-search-core',
      'tool-search-redis',
      'ioredis',
      'zod',
    ],
  },
});
