/**
 * Speed of `tool-search-core` and its adapters against Mastra's built-in `ToolSearchProcessor`
 * (and MiniSearch for the index), on catalogs made by repeating a data file's tools with numbered
 * ids. Every row runs in a fresh child process. Three sections:
 *
 * - **build**: build time, heap and search latency of the index, per data file and size;
 * - **steps**: what an agent step costs besides the model call, per adapter, with a static
 *   catalog and with request-resolved tools;
 * - **snapshot**: snapshot size, restore time and first search, against a cold build.
 *
 * Usage: `pnpm bench:speed [--only build,steps,snapshot] [--data a.json,b.json]
 * [--sizes 1000,10000,100000] [--queries 200] [--warmup 50] [--search-budget 120]
 * [--mastra-timeout 300] [--timeout 900] [--step-sizes 1000,10000] [--steps 200]
 * [--step-warmup 20] [--step-warmup-seconds 1] [--step-budget 60] [--snapshot-sizes 10000,100000] [--build-runs 5]`.
 * Up to 10,000 tools, build times are the median of `--build-runs` cold processes per ranker.
 * Relative data paths are taken from where the command was started.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDataSet, resolveDataFiles, SPEED_DATA_FILE } from './data';
import { count, markdownTable, megabytes, ms, ratio } from './format';
import { defaultRankers } from './rankers';
import type { SnapshotBuildResult, SnapshotRestoreResult } from './snapshot-worker';
import type { BuildReport, SpeedResult } from './speed-worker';
import { median } from './statistics';
import type { StepResult } from './step-worker';
import { type CatalogMode, STEP_ADAPTERS } from './steps';

const SPEED_WORKER = path.join(import.meta.dirname, 'speed-worker.ts');
const STEP_WORKER = path.join(import.meta.dirname, 'step-worker.ts');
const SNAPSHOT_WORKER = path.join(import.meta.dirname, 'snapshot-worker.ts');
const REGISTER = path.join(import.meta.dirname, 'register-ts.ts');
const SECTIONS = ['build', 'steps', 'snapshot'] as const;
type Section = (typeof SECTIONS)[number];

interface Options {
  only: Section[];
  dataFiles: string[];
  sizes: number[];
  queries: number;
  warmup: number;
  searchBudgetS: number;
  mastraTimeoutS: number;
  timeoutS: number;
  stepSizes: number[];
  steps: number;
  stepWarmup: number;
  /** Seconds of warm-up steps at least, the same for every adapter. */
  stepWarmupS: number;
  stepBudgetS: number;
  snapshotSizes: number[];
  /** Cold builds per ranker whose median is reported, at sizes up to `BUILD_RUNS_UP_TO`. */
  buildRuns: number;
}

/** Builds of more tools take seconds (Mastra's 100,000 take half a minute) and vary less: one each. */
const BUILD_RUNS_UP_TO = 10_000;

function sizesOf(flag: string, value: string): number[] {
  const sizes = value.split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size <= 0)) {
    throw new Error(`${flag} takes positive integers, comma-separated`);
  }
  return sizes;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    only: [...SECTIONS],
    dataFiles: [],
    sizes: [1_000, 10_000, 100_000],
    queries: 200,
    warmup: 50,
    searchBudgetS: 120,
    mastraTimeoutS: 300,
    timeoutS: 900,
    stepSizes: [1_000, 10_000],
    steps: 200,
    stepWarmup: 20,
    stepWarmupS: 1,
    stepBudgetS: 60,
    snapshotSizes: [10_000, 100_000],
    buildRuns: 5,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    const number = Number(value);
    switch (flag) {
      case '--only':
        options.only = value.split(',').map((section) => {
          if (!(SECTIONS as readonly string[]).includes(section))
            throw new Error(`--only takes ${SECTIONS.join(', ')}`);
          return section as Section;
        });
        break;
      case '--data':
        options.dataFiles = resolveDataFiles(value.split(','));
        break;
      case '--sizes':
        options.sizes = sizesOf(flag, value);
        break;
      case '--queries':
        options.queries = number;
        break;
      case '--warmup':
        options.warmup = number;
        break;
      case '--search-budget':
        options.searchBudgetS = number;
        break;
      case '--mastra-timeout':
        options.mastraTimeoutS = number;
        break;
      case '--timeout':
        options.timeoutS = number;
        break;
      case '--step-sizes':
        options.stepSizes = sizesOf(flag, value);
        break;
      case '--steps':
        options.steps = number;
        break;
      case '--step-warmup':
        options.stepWarmup = number;
        break;
      case '--step-warmup-seconds':
        if (!(number >= 0))
          throw new Error('--step-warmup-seconds takes a number of seconds, 0 or more');
        options.stepWarmupS = number;
        break;
      case '--step-budget':
        options.stepBudgetS = number;
        break;
      case '--build-runs':
        if (!Number.isInteger(number) || number < 1)
          throw new Error('--build-runs takes a positive integer');
        options.buildRuns = number;
        break;
      case '--snapshot-sizes':
        options.snapshotSizes = sizesOf(flag, value);
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (options.dataFiles.length === 0) {
    options.dataFiles = resolveDataFiles([]).sort(
      (left, right) => Number(right === SPEED_DATA_FILE) - Number(left === SPEED_DATA_FILE),
    );
  }
  return options;
}

/** What a child process printed (its JSON lines), and how it ended. */
interface ChildOutcome {
  reports: Record<string, unknown>[];
  ok: boolean;
  timedOut: boolean;
  reason: string;
}

/** Runs a worker in a fresh Node process with this process's flags plus `--expose-gc`. */
function runChild(
  script: string,
  args: readonly string[],
  timeoutS: number,
): Promise<ChildOutcome> {
  const execArgv = [...process.execArgv];
  if (!execArgv.includes('--expose-gc')) execArgv.push('--expose-gc');
  if (!execArgv.some((arg) => arg.includes('register-ts'))) execArgv.push('--import', REGISTER);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...execArgv, script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const reports = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const reason = timedOut
        ? `skipped (would take > ${timeoutS} s)`
        : `failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`;
      resolve({ reports, ok: code === 0 && !timedOut, timedOut, reason });
    });
  });
}

async function buildSection(options: Options, dataFile: string): Promise<void> {
  const rankers = defaultRankers();
  const name = path.basename(dataFile, '.json');
  console.log(
    `## Build and search: ${name} repeated (up to ${options.queries} timed queries after up to ${options.warmup} warm-up searches)\n`,
  );
  for (const size of options.sizes) {
    const results = new Map<string, SpeedResult | BuildReport | undefined>();
    const failures = new Map<string, string>();
    for (const ranker of rankers) {
      const timeoutS = ranker.key === 'mastra' ? options.mastraTimeoutS : options.timeoutS;
      const outcome = await runChild(
        SPEED_WORKER,
        [
          ranker.key,
          String(size),
          String(options.queries),
          String(options.warmup),
          String(options.searchBudgetS),
          dataFile,
        ],
        timeoutS,
      );
      const done = outcome.reports.find((report) => report.phase === 'done') as
        | SpeedResult
        | undefined;
      const build = outcome.reports.find((report) => report.phase === 'build') as
        | BuildReport
        | undefined;
      results.set(ranker.key, outcome.ok && done ? done : build);
      if (!(outcome.ok && done)) failures.set(ranker.key, outcome.reason);
    }
    // A cold build varies by a third from one process to the next here: up to BUILD_RUNS_UP_TO
    // tools, the build time is the median over more processes, the rankers taking turns.
    const buildTimes = new Map<string, number[]>();
    for (const [key, result] of results) if (result) buildTimes.set(key, [result.buildMs]);
    const runs = size <= BUILD_RUNS_UP_TO ? options.buildRuns : 1;
    for (let run = 1; run < runs; run++) {
      for (const ranker of rankers) {
        const times = buildTimes.get(ranker.key);
        if (times === undefined) continue;
        const timeoutS = ranker.key === 'mastra' ? options.mastraTimeoutS : options.timeoutS;
        const outcome = await runChild(
          SPEED_WORKER,
          [ranker.key, String(size), '0', '0', '0', dataFile],
          timeoutS,
        );
        const build = outcome.reports.find((report) => report.phase === 'build') as
          | BuildReport
          | undefined;
        if (build) times.push(build.buildMs);
      }
    }
    for (const [key, times] of buildTimes) {
      const result = results.get(key)!;
      results.set(key, { ...result, buildMs: median(times) });
    }
    const rows: string[][] = [];
    for (const ranker of rankers) {
      const result = results.get(ranker.key);
      const failure = failures.get(ranker.key);
      if (result === undefined) {
        rows.push([ranker.label, failure ?? 'failed', '', '', '', '']);
      } else if ('medianSearchMs' in result && failure === undefined) {
        rows.push([
          ranker.label,
          ms(result.buildMs),
          megabytes(result.heapBytes),
          ms(result.medianSearchMs),
          ms(result.p90SearchMs),
          String(result.searches),
        ]);
      } else {
        rows.push([
          ranker.label,
          ms(result.buildMs),
          megabytes(result.heapBytes),
          failure ?? '',
          '',
          '',
        ]);
      }
    }
    console.log(`### ${count(size)} tools\n`);
    if (runs > 1) console.log(`Build ms: median of ${runs} cold processes per ranker.\n`);
    console.log(
      markdownTable(
        ['ranker', 'build ms', 'heap MB', 'median search ms', 'p90 search ms', 'timed searches'],
        rows,
      ),
    );
    const ours = results.get('ours');
    const mastra = results.get('mastra');
    if (ours && mastra) {
      const parts = [
        `build ${ratio(ours.buildMs, mastra.buildMs, 'faster', 'slower')}`,
        `heap ${ratio(ours.heapBytes, mastra.heapBytes, 'smaller', 'larger')}`,
      ];
      if ('medianSearchMs' in ours && 'medianSearchMs' in mastra) {
        parts.push(
          `search ${ratio(ours.medianSearchMs, mastra.medianSearchMs, 'faster', 'slower')} (median)`,
          `${ratio(ours.p90SearchMs, mastra.p90SearchMs, 'faster', 'slower')} (p90)`,
        );
      }
      console.log(`\nToolIndex vs Mastra: ${parts.join(', ')}`);
    }
    console.log('');
  }
}

async function stepsSection(options: Options, dataFile: string): Promise<void> {
  const name = path.basename(dataFile, '.json');
  console.log(
    `## Cost of an agent step: ${name} repeated (the adapter's step hook plus one search_tools call; median and p90 of up to ${options.steps} steps after at least ${options.stepWarmup} warm-up steps and ${options.stepWarmupS} s of them)\n`,
  );
  const modes: CatalogMode[] = ['static', 'resolved'];
  for (const size of options.stepSizes) {
    const results = new Map<string, StepResult | string>();
    for (const adapter of STEP_ADAPTERS) {
      for (const mode of modes) {
        if (adapter.modes && !adapter.modes.only.includes(mode)) {
          results.set(`${adapter.key}:${mode}`, adapter.modes.reason);
          continue;
        }
        const timeoutS =
          adapter.key === 'mastra-builtin' ? options.mastraTimeoutS : options.timeoutS;
        const outcome = await runChild(
          STEP_WORKER,
          [
            adapter.key,
            mode,
            String(size),
            String(options.steps),
            String(options.stepWarmup),
            String(options.stepBudgetS),
            dataFile,
            String(options.stepWarmupS),
          ],
          timeoutS,
        );
        const result = outcome.reports[0] as StepResult | undefined;
        results.set(`${adapter.key}:${mode}`, outcome.ok && result ? result : outcome.reason);
      }
    }
    const cells = (key: string, mode: CatalogMode): string[] => {
      const result = results.get(`${key}:${mode}`);
      const mastra = results.get(`mastra-builtin:${mode}`);
      if (typeof result !== 'object') return [result ?? '', '', ''];
      const versus =
        key === 'mastra-builtin' || typeof mastra !== 'object'
          ? ''
          : ratio(result.medianStepMs, mastra.medianStepMs, 'less', 'more');
      return [ms(result.medianStepMs), ms(result.p90StepMs), versus];
    };
    const rows = STEP_ADAPTERS.map((adapter) => [
      adapter.label,
      ...cells(adapter.key, 'static'),
      ...cells(adapter.key, 'resolved'),
    ]);
    console.log(`### ${count(size)} tools\n`);
    console.log(
      markdownTable(
        [
          'adapter',
          'static median ms',
          'static p90 ms',
          'static vs Mastra',
          'resolved median ms',
          'resolved p90 ms',
          'resolved vs Mastra',
        ],
        rows,
      ),
    );
    console.log('');
  }
}

async function snapshotSection(options: Options, dataFile: string): Promise<void> {
  const name = path.basename(dataFile, '.json');
  const folder = mkdtempSync(path.join(tmpdir(), 'tool-search-snapshot-'));
  console.log(`## Index snapshots: ${name} repeated (build and restore each in a fresh process)\n`);
  const query = loadDataSet(dataFile).queries[0]?.query;
  const rows: string[][] = [];
  try {
    for (const size of options.snapshotSizes) {
      const file = path.join(folder, `${size}.index`);
      const built = await runChild(
        SNAPSHOT_WORKER,
        ['build', String(size), dataFile, file],
        options.timeoutS,
      );
      const build = built.reports[0] as SnapshotBuildResult | undefined;
      if (!built.ok || !build) {
        rows.push([count(size), built.reason, '', '', '', '', '', '', '', '']);
        continue;
      }
      const restored = await runChild(
        SNAPSHOT_WORKER,
        ['restore', file, dataFile],
        options.timeoutS,
      );
      const restore = restored.reports[0] as SnapshotRestoreResult | undefined;
      if (!restored.ok || !restore) {
        rows.push([
          count(size),
          ms(build.buildMs),
          megabytes(build.snapshotBytes),
          restored.reason,
          '',
          '',
          '',
          '',
          '',
          '',
        ]);
        continue;
      }
      rows.push([
        count(size),
        ms(build.buildMs),
        ms(build.snapshotMs),
        megabytes(build.snapshotBytes),
        ms(restore.readMs),
        ms(restore.restoreMs),
        ms(restore.firstSearchMs),
        ratio(restore.restoreMs, build.buildMs, 'faster', 'slower'),
        ms(restore.syncMs),
        ratio(restore.restoreMs + restore.syncMs, build.buildMs, 'faster', 'slower'),
      ]);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(
    markdownTable(
      [
        'tools',
        'build ms',
        'toSnapshot ms',
        'snapshot MB',
        'read file ms',
        'restore ms',
        'first search ms',
        'restore vs build',
        'check against catalog ms',
        'restore + check vs build',
      ],
      rows,
    ),
  );
  console.log(
    `\nFirst search: ${JSON.stringify(query ?? '')}. Check against catalog: \`index.sync(catalog)\` with the unchanged catalog (every tool's content hash compared, none indexed), which an engine given a snapshot and its catalog runs at start-up.\n`,
  );
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const [first] = options.dataFiles;
  if (first === undefined) throw new Error('no data file');
  console.log(`# Speed (node ${process.version}; one fresh process per row)\n`);
  if (options.only.includes('build')) {
    for (const dataFile of options.dataFiles) await buildSection(options, dataFile);
  }
  if (options.only.includes('steps')) await stepsSection(options, first);
  if (options.only.includes('snapshot')) await snapshotSection(options, first);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
