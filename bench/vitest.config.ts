import { defineProject } from 'vitest/config';

export default defineProject({
  // Tests read workspace packages' src/: `ssr` covers the Node-side resolution vitest uses.
  resolve: { conditions: ['tool-search-source'] },
  ssr: { resolve: { conditions: ['tool-search-source'] } },
  test: { name: 'bench', include: ['src/**/*.test.ts'] },
});
