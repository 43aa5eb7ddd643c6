import { defineConfig } from 'vitest/config';

// One run over every workspace package: `pnpm unit` (CI runs each package's own `test` via turbo).
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'bench'],
  },
});
