// Tests what users install, not the workspace: packs every public package (packages/*, except
// "private": true), installs the tarballs with npm into a fresh project outside the repository
// together with only the packages the READMEs' install commands name, type-checks every
// documentation block there under strict, runs each package's main snippet (its ```ts run
// block) with Node, and dry-runs `pnpm publish` for each package.
// Run after `pnpm build`: `pnpm smoke:tarballs` (`--keep` keeps the project and prints where).
// Third-party packages are installed at the exact versions the workspace tests with, so CI does
// not change under us; SMOKE_LATEST=1 installs what a new user would get today instead.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import {
  BlockProject,
  harnessName,
  matchesExpectation,
  RECORD_ENV,
  type RecordedOutput,
  type RunnableModule,
} from './lib/block-project.ts';
import {
  codeBlocks,
  documentationFiles,
  installedByReadme,
  type PackageManifest,
  packageProblems,
  publicPackages,
  workspacePackages,
} from './lib/docs.ts';

/** A snippet runs a scripted agent in well under a second; this only catches a hang. */
const RUN_TIMEOUT_MS = 60_000;
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[\w.]+)?$/;

const root = resolve(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a script run outside turbo, never cached.
const latest = process.env.SMOKE_LATEST === '1';
const packages = publicPackages(root);
const problems: string[] = [];
const timings: [string, number][] = [];

const unbuilt = packages.filter(
  (pkg) => !existsSync(join(pkg.dir, pkg.manifest.types ?? 'dist/index.d.ts')),
);
if (unbuilt.length > 0) {
  console.error(
    `smoke-tarballs: build first (pnpm build); no types in ${unbuilt.map((pkg) => pkg.name).join(', ')}`,
  );
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'tool-search-smoke-'));
// Removed however the script ends (a failed npm install throws), unless --keep.
process.on('exit', () => {
  if (keep) console.log(`smoke-tarballs: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
});
const tarballDir = join(work, 'tarballs');
mkdirSync(tarballDir);

// 1. Pack, and look inside each tarball as npm will publish it.
const tarballs = timed('pack', () =>
  packages.map((pkg) => {
    const output = execFileSync('pnpm', ['pack', '--pack-destination', tarballDir], {
      cwd: pkg.dir,
      encoding: 'utf8',
    });
    const tarball = output.trim().split('\n').at(-1)!.trim();
    problems.push(...tarballProblems(pkg.name, tarball, pkg.manifest));
    return tarball;
  }),
);

// 2. A fresh npm project: the tarballs, plus what the READMEs tell a user to install.
const project = new BlockProject(join(work, 'app'), root);
const specs = [...tarballs, ...thirdPartySpecs(), typesNodeSpec()];
timed('npm install', () => {
  const shown = specs.map((spec) => (spec.startsWith(work) ? relative(work, spec) : spec));
  console.log(`smoke-tarballs: npm install ${shown.join(' ')}`);
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline', ...specs],
    { cwd: project.dir, stdio: 'inherit' },
  );
});

// 3. Every documentation block, type-checked against the installed packages.
const packageOfReadme = new Map(
  packages.map((pkg) => [relative(root, join(pkg.dir, 'README.md')), pkg.name]),
);
const runnables: RunnableModule[] = [];
for (const pkg of packages) problems.push(...packageProblems(root, pkg));
for (const file of documentationFiles(root)) {
  for (const block of codeBlocks(root, file)) {
    project.addBlock(block);
    if (block.kind !== 'run') continue;
    const runnable = project.addRunnable(block, harnessName(block, packageOfReadme));
    if (typeof runnable === 'string') problems.push(runnable);
    else runnables.push(runnable);
  }
}
for (const pkg of packages) {
  const readme = relative(root, join(pkg.dir, 'README.md'));
  if (!runnables.some((runnable) => runnable.block.file === readme)) {
    problems.push(
      `${readme}: no main snippet to run; fence the package's main example as \`\`\`ts run (see CONTRIBUTING.md)`,
    );
  }
}
problems.push(
  ...timed('type-check', () => project.typeCheck(join(root, 'node_modules', '.bin', 'tsc'))),
);

// 4. Run the main snippets with Node, as a user would copy them.
timed('run snippets', () => {
  for (const runnable of runnables) {
    const { block, fileName } = runnable;
    const record = join(work, `${runnables.indexOf(runnable)}.output.jsonl`);
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', fileName],
      {
        cwd: project.dir,
        encoding: 'utf8',
        timeout: RUN_TIMEOUT_MS,
        env: { ...process.env, [RECORD_ENV]: record },
      },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const output = `${run.stdout}${run.stderr}`.trim().replace(/^/gm, '    ');
    if (run.status === 0) {
      console.log(`smoke-tarballs: ran ${block.file}:${block.line} in ${seconds} s\n${output}`);
      problems.push(...outputProblems(runnable, record));
    } else {
      const why = run.error ? String(run.error) : `exit code ${run.status}`;
      problems.push(`${block.file}:${block.line}: the snippet failed (${why}):\n${output}`);
    }
  }
});

// 5. What `pnpm publish` would do, without publishing.
timed('publish --dry-run', () => {
  for (const pkg of packages) {
    const run = spawnSync('pnpm', ['publish', '--dry-run', '--no-git-checks', '--json'], {
      cwd: pkg.dir,
      encoding: 'utf8',
    });
    if (run.status !== 0) {
      problems.push(`${pkg.name}: pnpm publish --dry-run failed:\n${run.stdout}${run.stderr}`);
      continue;
    }
    const files = (JSON.parse(run.stdout) as { files: { path: string }[] }).files.map(
      (file) => file.path,
    );
    for (const required of ['LICENSE', 'README.md', 'package.json']) {
      if (!files.includes(required))
        problems.push(`${pkg.name}: pnpm publish would leave out ${required}`);
    }
  }
});

console.log(
  `smoke-tarballs: ${timings.map(([step, seconds]) => `${step} ${seconds.toFixed(1)} s`).join(', ')}`,
);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\nsmoke-tarballs: ${problems.length} problem(s) with what users install`);
  process.exit(1);
}
console.log(
  `smoke-tarballs: ${packages.length} packages packed, installed with npm, type-checked and run`,
);

/**
 * The third-party packages the public packages' READMEs tell users to install, each at the
 * version the workspace tests with (unless the README pins one, or SMOKE_LATEST=1).
 */
function thirdPartySpecs(): string[] {
  const ours = new Set(packages.map((pkg) => pkg.name));
  const wanted = new Map<string, string | undefined>();
  for (const pkg of packages) {
    const readme = relative(root, join(pkg.dir, 'README.md'));
    if (!existsSync(join(root, readme))) continue;
    for (const [name, range] of installedByReadme(root, readme)) {
      if (!ours.has(name) && (range !== undefined || !wanted.has(name))) wanted.set(name, range);
    }
  }
  return [...wanted].map(([name, range]) => {
    const version = range ?? (latest ? undefined : testedVersion(name));
    return version ? `${name}@${version}` : name;
  });
}

/** `@types/node` for Node 22, at the root's range: what a TypeScript user on Node 22 has. */
function typesNodeSpec(): string {
  const rootManifest = JSON.parse(
    readFileSync(join(root, 'package.json'), 'utf8'),
  ) as PackageManifest;
  return `@types/node@${rootManifest.devDependencies?.['@types/node'] ?? '22'}`;
}

/** The exact version of a package that a workspace package or example pins, if any. */
function testedVersion(name: string): string | undefined {
  const manifests = [
    ...workspacePackages(root).map((pkg) => pkg.manifest),
    ...documentationFiles(root)
      .filter((file) => file.startsWith('examples/'))
      .map((file) => join(root, file.replace(/README\.md$/, 'package.json')))
      .filter((file) => existsSync(file))
      .map((file) => JSON.parse(readFileSync(file, 'utf8')) as PackageManifest),
  ];
  for (const manifest of manifests) {
    const version = manifest.devDependencies?.[name] ?? manifest.dependencies?.[name];
    if (version && EXACT_VERSION.test(version)) return version;
  }
  return undefined;
}

/** The `console.log` comments of a run that do not match what it printed. */
function outputProblems(runnable: RunnableModule, record: string): string[] {
  const printed = existsSync(record)
    ? readFileSync(record, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RecordedOutput)
    : [];
  const problems: string[] = [];
  for (const { blockLine, expected } of runnable.expectations) {
    const where = `${runnable.block.file}:${runnable.block.line + blockLine - 1}`;
    const texts = printed
      .filter((output) => output.line === runnable.offset + blockLine)
      .map((output) => output.text);
    if (texts.length === 0) problems.push(`${where}: this console.log never ran`);
    else if (!texts.some((text) => matchesExpectation(text, expected)))
      problems.push(
        `${where}: the comment says\n    ${expected}\n  but it printed\n    ${texts.join('\n    ')}`,
      );
  }
  return problems;
}

/** What a tarball must hold: LICENSE, README, the entry points, and no `workspace:` ranges. */
function tarballProblems(name: string, tarball: string, manifest: PackageManifest): string[] {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  const problems: string[] = [];
  const required = ['LICENSE', 'README.md', 'package.json', manifest.types, manifest.main];
  for (const file of required) {
    if (file && !listing.includes(`package/${file.replace(/^\.\//, '')}`))
      problems.push(`${name}: the tarball has no ${file}`);
  }
  const packed = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as PackageManifest;
  for (const field of ['dependencies', 'peerDependencies'] as const) {
    for (const [dependency, range] of Object.entries(packed[field] ?? {})) {
      if (range.startsWith('workspace:'))
        problems.push(`${name}: the tarball's ${field} keeps ${dependency}@${range}`);
    }
  }
  for (const field of ['license', 'description', 'engines', 'keywords'] as const) {
    if (packed[field] === undefined) problems.push(`${name}: package.json has no "${field}"`);
  }
  return problems;
}

function timed<T>(step: string, work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    timings.push([step, (performance.now() - started) / 1000]);
  }
}
