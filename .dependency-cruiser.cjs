// The shape of the repository's imports, checked by `pnpm check:structure` (part of `pnpm check`).
// docs/architecture.md explains the floors and layers; change them there and here together.
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

/** Tests may import from any layer and any package (they are imported by nothing). */
const TESTS = '(\\.test\\.ts$|/test-utils/|/testing/)';

/** The packages, by floor: a package imports only packages on lower floors. */
const FLOORS = [['core'], ['ai-sdk', 'langchain', 'mastra', 'redis'], ['mcp'], ['cli']];

/**
 * The folders of `tool-search-core`, by layer, lowest first: a folder imports only its own layer's
 * files and lower layers (folders sharing a layer do not import each other). The meta-tools sit
 * below the engine: they take a `MetaToolHost`, the narrow interface a session satisfies, and the
 * session builds them. The entry points (`src/index.ts` and the subpaths, `src/anthropic.ts` and
 * `src/openai.ts`) are above them all.
 */
const CORE_LAYERS = [
  ['search', 'state', 'schema'],
  ['embedding'],
  ['meta-tools'],
  ['engine'],
  ['native'],
];

/** Each workspace package's entry points (its `exports`, as the sources resolve), as patterns. */
const ENTRY_POINTS = readdirSync(path.join(__dirname, 'packages')).flatMap((name) => {
  let manifest;
  try {
    manifest = JSON.parse(
      readFileSync(path.join(__dirname, 'packages', name, 'package.json'), 'utf8'),
    );
  } catch {
    return [];
  }
  return Object.values(manifest.exports ?? {}).flatMap((target) => {
    const source = target && typeof target === 'object' ? target['tool-search-source'] : undefined;
    if (typeof source !== 'string') return [];
    const file = source.replace(/^\.\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return [`^packages/${name}/${file}$`];
  });
});

const alternatives = (names) => `(${names.join('|')})`;

/** One rule per floor: its packages' sources import no package on their floor or above. */
function floorRules() {
  return FLOORS.slice(0, -1).map((floor, level) => {
    const sameOrAbove = FLOORS.slice(level).flat();
    return {
      name: `floor-${floor.join('-')}`,
      comment: `${floor.join(', ')} may import only packages on lower floors (see docs/architecture.md)`,
      severity: 'error',
      from: { path: `^packages/${alternatives(floor)}/src/`, pathNot: TESTS },
      to: { path: `^packages/${alternatives(sameOrAbove)}/`, pathNot: '^packages/$1/' },
    };
  });
}

/** One rule per core layer: its folders import no sibling folder and no folder above. */
function coreLayerRules() {
  return CORE_LAYERS.slice(0, -1).map((layer, level) => {
    const sameOrAbove = CORE_LAYERS.slice(level).flat();
    return {
      name: `core-layer-${layer.join('-')}`,
      comment: `tool-search-core: ${layer.join(', ')} may import only lower layers (see docs/architecture.md)`,
      severity: 'error',
      from: {
        path: `^packages/core/src/${alternatives(layer)}/`,
        pathNot: TESTS,
      },
      to: {
        path: `^packages/core/src/${alternatives(sameOrAbove)}/`,
        pathNot: '^packages/core/src/$1/',
      },
    };
  });
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: split out what both sides need, into the lower one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...coreLayerRules(),
    {
      name: 'core-entry-points-on-top',
      comment:
        "tool-search-core's entry points (src/index.ts and the subpaths' files) only re-export: nothing inside the package imports them.",
      severity: 'error',
      from: { path: '^packages/core/src/[^/]+/', pathNot: TESTS },
      to: { path: '^packages/core/src/[^/]+\\.ts$' },
    },
    ...floorRules(),
    {
      name: 'package-by-its-entry',
      comment:
        'Another package is imported by its name or a subpath it exports, never by a path into it.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/', pathNot: ['^packages/$1/', ...ENTRY_POINTS] },
    },
    {
      name: 'published-imports-no-private',
      comment:
        'A published package never imports the private workspace (tool-search-testing, bench, examples, scripts) outside its tests.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: TESTS },
      to: { path: '^(internal|bench|examples|scripts)/' },
    },
  ],
  options: {
    // swc parses TypeScript here (dependency-cruiser cannot use TypeScript 7 yet); it keeps
    // type-only imports, which count: a type import makes a circle as much as a value import.
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.turbo)/' },
    // Workspace packages resolve to their sources, as the tests and type-checks read them.
    enhancedResolveOptions: {
      conditionNames: ['tool-search-source', 'import', 'types', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
