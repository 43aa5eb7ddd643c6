// The documentation's code blocks and the workspace's packages, for the README checks
// (check-readme-code.ts: TypeScript; check-readme-shell.ts: shell blocks marked runnable) and the
// install-from-tarball smoke test (smoke-tarballs.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';

/** A fenced TypeScript block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the block's first code line in that file. */
  line: number;
  /** `'check'`: type-checked; `'run'`: type-checked and run by the smoke test. */
  kind: 'check' | 'run';
  code: string;
}

/** A package of the workspace (`packages/*`). */
export interface WorkspacePackage {
  name: string;
  /** The package's folder, absolute. */
  dir: string;
  manifest: PackageManifest;
}

/** The parts of a package.json the checks read. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  license?: string;
  keywords?: string[];
  files?: string[];
  engines?: Record<string, string>;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const TS_LANGUAGES = new Set(['ts', 'typescript']);
/** Skips a block: for code that cannot stand alone. Use sparingly. */
const FRAGMENT_FLAG = 'fragment';
/** Marks a package README's main snippet, which the smoke test runs. */
const RUN_FLAG = 'run';

/**
 * Every Markdown file whose TypeScript blocks are checked: the root README, each package's and
 * example's README, the benchmark's, and the pages under docs/. Globbed, so a new package is
 * covered the day it lands.
 */
export function documentationFiles(root: string): string[] {
  const files = ['README.md', 'bench/README.md'];
  for (const folder of ['packages', 'examples']) {
    for (const name of subfolders(join(root, folder))) files.push(`${folder}/${name}/README.md`);
  }
  files.push(...markdownUnder(root, 'docs'));
  return files.filter((file) => existsSync(join(root, file)));
}

/**
 * The TypeScript blocks of a Markdown file: ` ```ts ` is checked, ` ```ts run ` is checked and
 * run, ` ```ts fragment ` is skipped.
 */
export function codeBlocks(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const [, indent, fence, language, rest] = open as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    const start = index + 1;
    let end = start;
    while (end < lines.length && !isClosingFence(lines[end]!, fence)) end++;
    index = end;
    if (!TS_LANGUAGES.has(language.toLowerCase())) continue;
    const flags = rest.split(/\s+/).filter(Boolean);
    if (flags.includes(FRAGMENT_FLAG)) continue;
    const code = lines
      .slice(start, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    blocks.push({ file, line: start + 1, kind: flags.includes(RUN_FLAG) ? 'run' : 'check', code });
  }
  return blocks;
}

/** A fenced shell block marked ` ```sh run `: run by check-readme-shell.ts, from the root. */
export interface ShellBlock {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the block's first command line in that file. */
  line: number;
  code: string;
}

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);

/**
 * The shell blocks of a Markdown file marked runnable (` ```sh run `): commands a reader types
 * in the repository's root that finish on their own, offline, in seconds.
 */
export function runnableShellBlocks(root: string, file: string): ShellBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const [, , fence, language, rest] = open as unknown as [string, string, string, string, string];
    const start = index + 1;
    let end = start;
    while (end < lines.length && !isClosingFence(lines[end]!, fence)) end++;
    index = end;
    if (!SHELL_LANGUAGES.has(language.toLowerCase())) continue;
    if (!rest.split(/\s+/).includes(RUN_FLAG)) continue;
    blocks.push({ file, line: start + 1, code: lines.slice(start, end).join('\n') });
  }
  return blocks;
}

function isClosingFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(fence[0]!.repeat(fence.length)) && /^[`~]+$/.test(trimmed);
}

/** The packages under packages/, public and private, sorted by folder. */
export function workspacePackages(root: string): WorkspacePackage[] {
  return subfolders(join(root, 'packages'))
    .filter((name) => existsSync(join(root, 'packages', name, 'package.json')))
    .map((name) => {
      const dir = join(root, 'packages', name);
      const manifest = JSON.parse(
        readFileSync(join(dir, 'package.json'), 'utf8'),
      ) as PackageManifest;
      return { name: manifest.name, dir, manifest };
    });
}

/** The packages a user installs: every workspace package not marked `"private": true`. */
export function publicPackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).filter((pkg) => pkg.manifest.private !== true);
}

/**
 * Package names the Markdown's shell blocks tell a user to install (`npm install`, `npm i`,
 * `pnpm add`, `yarn add`, `bun add`), each with the version range written there, if any.
 */
export function installedByReadme(root: string, file: string): Map<string, string | undefined> {
  const text = readFileSync(join(root, file), 'utf8');
  const installs = new Map<string, string | undefined>();
  const shellBlocks = text.matchAll(/^```(?:sh|bash|shell|console)(?: run)?\s*\n([\s\S]*?)^```/gm);
  for (const [, body] of shellBlocks) {
    for (const rawLine of body!.split('\n')) {
      const line = rawLine.replace(/#.*$/, '').replace(/^\$\s*/, '');
      const command =
        /^\s*(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|yarn\s+add|bun\s+add)\s+(.*)$/.exec(
          line,
        );
      if (!command) continue;
      for (const word of command[1]!.split(/\s+/)) {
        if (word === '' || word.startsWith('-')) continue;
        const { name, range } = splitSpecifier(word);
        installs.set(name, range);
      }
    }
  }
  return installs;
}

/** `zod@^4` → `{ name: 'zod', range: '^4' }`; `@scope/name@1` keeps its scope. */
export function splitSpecifier(word: string): { name: string; range: string | undefined } {
  const at = word.indexOf('@', 1);
  return at === -1
    ? { name: word, range: undefined }
    : { name: word.slice(0, at), range: word.slice(at + 1) };
}

/** The packages a block imports (`import ... from 'x'`, `import('x')`), without Node built-ins. */
export function importedPackages(code: string): string[] {
  const names = new Set<string>();
  const specifiers = code.matchAll(
    /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  );
  for (const match of specifiers) {
    const specifier = match[1] ?? match[2]!;
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
      continue;
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    if (!builtinModules.includes(name)) names.add(name);
  }
  return [...names];
}

/**
 * Problems a new user would meet with a public package before compiling anything: metadata npm
 * shows or needs, no install command naming the package, a block importing a package the
 * install commands leave out, or a relative link (it breaks on the npm page).
 */
export function packageProblems(root: string, pkg: WorkspacePackage): string[] {
  const problems: string[] = [];
  const manifestFile = relative(root, join(pkg.dir, 'package.json'));
  const { manifest } = pkg;
  for (const field of ['description', 'license', 'keywords', 'engines', 'files'] as const) {
    if (manifest[field] === undefined) problems.push(`${manifestFile}: no "${field}"`);
  }
  if (!/>=\s*2[2-9]|>=\s*[3-9]\d/.test(manifest.engines?.node ?? ''))
    problems.push(`${manifestFile}: engines.node should require Node 22 or later`);
  for (const file of ['README.md', 'LICENSE']) {
    if (manifest.files && !manifest.files.includes(file))
      problems.push(`${manifestFile}: "files" should list ${file}`);
  }
  const file = relative(root, join(pkg.dir, 'README.md'));
  if (!existsSync(join(root, file)))
    return [...problems, `${file}: missing (every public package has a README)`];
  const installed = installedByReadme(root, file);
  if (!installed.has(pkg.name))
    problems.push(`${file}: no install command (\`npm install ${pkg.name} ...\`) in a sh block`);
  for (const block of codeBlocks(root, file)) {
    for (const name of importedPackages(block.code)) {
      if (!installed.has(name)) {
        problems.push(
          `${file}:${block.line}: imports "${name}", which no install command in this README names`,
        );
      }
    }
  }
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  lines.forEach((line, index) => {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^(?:https?:|mailto:|#)/.test(target!)) {
        problems.push(
          `${file}:${index + 1}: relative link "${target}" breaks on the npm page; link an npm page or name the file in words`,
        );
      }
    }
  });
  return problems;
}

function subfolders(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

function markdownUnder(root: string, folder: string): string[] {
  const found: string[] = [];
  const walk = (relativeFolder: string) => {
    const absolute = join(root, relativeFolder);
    if (!existsSync(absolute)) return;
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const path = `${relativeFolder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk(folder);
  return found.sort();
}
