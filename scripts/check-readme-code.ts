// Type-checks every TypeScript block of the documentation against the BUILT packages (their
// dist `.d.ts`, as npm users get them), under `strict`, each block as a module of its own.
// Run after `pnpm build`: `node --experimental-strip-types scripts/check-readme-code.ts`.
// Markdown files: README.md, packages/*/README.md, examples/*/README.md, bench/README.md, docs/**.
// ```ts is checked, ```ts run is checked (and run by smoke-tarballs.ts), ```ts fragment is skipped.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { BlockProject, harnessName } from './lib/block-project.ts';
import {
  codeBlocks,
  documentationFiles,
  packageProblems,
  publicPackages,
  type WorkspacePackage,
} from './lib/docs.ts';

const root = resolve(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const packages = publicPackages(root);

const unbuilt = packages.filter(
  (pkg) => !existsSync(join(pkg.dir, pkg.manifest.types ?? 'dist/index.d.ts')),
);
if (unbuilt.length > 0) {
  console.error(
    `check-readme-code: build first (pnpm build); no types in ${unbuilt.map((pkg) => pkg.name).join(', ')}`,
  );
  process.exit(1);
}

const problems = packages.flatMap((pkg) => packageProblems(root, pkg));
const project = new BlockProject(mkdtempSync(join(tmpdir(), 'readme-code-')), root);
process.on('exit', () => {
  if (keep) console.log(`check-readme-code: kept ${project.dir}`);
  else rmSync(project.dir, { recursive: true, force: true });
});
linkDependencies(project.dir, packages);

const packageOfReadme = new Map(
  packages.map((pkg) => [relative(root, join(pkg.dir, 'README.md')), pkg.name]),
);
let blockCount = 0;
for (const file of documentationFiles(root)) {
  for (const block of codeBlocks(root, file)) {
    blockCount++;
    project.addBlock(block);
    if (block.kind !== 'run') continue;
    const runnable = project.addRunnable(block, harnessName(block, packageOfReadme));
    if (typeof runnable === 'string') problems.push(runnable);
  }
}

problems.push(...project.typeCheck(join(root, 'node_modules', '.bin', 'tsc')));
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\ncheck-readme-code: ${problems.length} problem(s) in the docs (code blocks, install commands, links) or package metadata`,
  );
  process.exit(1);
}
console.log(
  `check-readme-code: ${blockCount} TypeScript blocks compile under strict against the built packages`,
);

/**
 * Gives the project a node_modules in which every public package resolves to its folder (so to
 * its dist types through `exports`) and every third-party package to the instance the workspace
 * installed: a framework from the adapter that takes it as a peer first, so the types the
 * adapter was built against are the ones the blocks see.
 */
function linkDependencies(projectDir: string, publicOnes: WorkspacePackage[]): void {
  const modules = join(projectDir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const link = (name: string, target: string) => {
    const path = join(modules, name);
    if (existsSync(path) || lstatSync(path, { throwIfNoEntry: false })) return;
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(realpathSync(target), path, 'dir');
  };
  for (const pkg of publicOnes) link(pkg.name, pkg.dir);
  for (const pkg of publicOnes) {
    for (const name of Object.keys(pkg.manifest.peerDependencies ?? {})) {
      const target = join(pkg.dir, 'node_modules', name);
      if (existsSync(target)) link(name, target);
    }
  }
  const folders = [
    ...publicOnes.map((pkg) => pkg.dir),
    ...readdirSync(join(root, 'examples')).map((name) => join(root, 'examples', name)),
    root,
  ];
  for (const folder of folders) {
    for (const name of installedNames(join(folder, 'node_modules')))
      link(name, join(folder, 'node_modules', name));
  }
}

/** Package names directly in a node_modules folder (scoped ones as `@scope/name`). */
function installedNames(modules: string): string[] {
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    if (!entry.startsWith('@')) return [entry];
    return readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`);
  });
}
