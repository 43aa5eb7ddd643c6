/**
 * Build time, search latency and heap of `ToolIndex`, Mastra's `ToolSearchProcessor` and
 * MiniSearch on catalogs of 1,000, 10,000 and 100,000 tools (the dev-bfcl catalog repeated with
 * numbered ids), each measured in a fresh `node --expose-gc` child process.
 *
 * Usage: `pnpm bench:speed [--sizes 1000,10000,100000] [--queries 200] [--warmup 50]
 * [--search-budget 120] [--mastra-timeout 300] [--timeout 900]`. Each process stops searching
 * once `--search-budget` seconds of timed searches are spent and reports over the searches done.
 * A Mastra process still running after `--mastra-timeout` seconds (other rankers:
 * `--timeout`) is stopped and reported as skipped, with its build figures if it got that far.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { count, markdownTable, megabytes, ms, ratio } from './format';
import { defaultRankers } from './rankers';
import type { BuildReport, SpeedResult } from './speed-worker';

const WORKER = path.join(import.meta.dirname, 'speed-worker.ts');
const REGISTER = path.join(import.meta.dirname, 'register-ts.ts');

interface Options {
  sizes: number[];
  queries: number;
  warmup: number;
  searchBudgetS: number;
  mastraTimeoutS: number;
  timeoutS: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    sizes: [1_000, 10_000, 100_000],
    queries: 200,
    warmup: 50,
    searchBudgetS: 120,
    mastraTimeoutS: 300,
    timeoutS: 900,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    const number = Number(value);
    switch (flag) {
      case '--sizes':
        options.sizes = value.split(',').map(Number);
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
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (options.sizes.some((size) => !Number.isInteger(size) || size <= 0)) {
    throw new Error('--sizes takes positive integers, comma-separated');
  }
  return options;
}

/** A worker's figures: complete, build-only (stopped while searching), or none. */
type Outcome =
  | { ok: true; result: SpeedResult }
  | { ok: false; reason: string; build?: BuildReport };

/** Runs one worker; resolves to its figures, or to why there are none. */
function runWorker(
  key: string,
  size: number,
  options: Options,
  timeoutS: number,
): Promise<Outcome> {
  // Forward this process's flags (--conditions, --import) and add --expose-gc.
  const execArgv = [...process.execArgv];
  if (!execArgv.includes('--expose-gc')) execArgv.push('--expose-gc');
  if (!execArgv.some((arg) => arg.includes('register-ts'))) execArgv.push('--import', REGISTER);
  const args = [
    ...execArgv,
    WORKER,
    key,
    String(size),
    String(options.queries),
    String(options.warmup),
    String(options.searchBudgetS),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
        .map((line) => JSON.parse(line) as BuildReport | SpeedResult);
      const build = reports.find((report): report is BuildReport => report.phase === 'build');
      const done = reports.find((report): report is SpeedResult => report.phase === 'done');
      if (done !== undefined && code === 0) {
        resolve({ ok: true, result: done });
        return;
      }
      const reason = timedOut
        ? `skipped (would take > ${timeoutS} s)`
        : `failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`;
      resolve(build === undefined ? { ok: false, reason } : { ok: false, reason, build });
    });
  });
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const rankers = defaultRankers();
  console.log(
    `# Speed (dev-bfcl catalog repeated; up to ${options.queries} timed queries after up to ${options.warmup} warm-up searches; node ${process.version}; one fresh process per row)\n`,
  );
  for (const size of options.sizes) {
    const outcomes = new Map<string, Outcome>();
    const rows: string[][] = [];
    for (const ranker of rankers) {
      const timeoutS = ranker.key === 'mastra' ? options.mastraTimeoutS : options.timeoutS;
      const outcome = await runWorker(ranker.key, size, options, timeoutS);
      outcomes.set(ranker.key, outcome);
      if (outcome.ok) {
        const r = outcome.result;
        rows.push([
          ranker.label,
          ms(r.buildMs),
          megabytes(r.heapBytes),
          ms(r.medianSearchMs),
          ms(r.p90SearchMs),
          String(r.searches),
        ]);
      } else if (outcome.build !== undefined) {
        const b = outcome.build;
        rows.push([ranker.label, ms(b.buildMs), megabytes(b.heapBytes), outcome.reason, '', '']);
      } else {
        rows.push([ranker.label, outcome.reason, '', '', '', '']);
      }
    }
    console.log(`## ${count(size)} tools\n`);
    console.log(
      markdownTable(
        ['ranker', 'build ms', 'heap MB', 'median search ms', 'p90 search ms', 'timed searches'],
        rows,
      ),
    );
    const ours = outcomes.get('ours');
    const mastra = outcomes.get('mastra');
    const o = ours?.ok ? ours.result : undefined;
    const m = mastra?.ok ? mastra.result : mastra?.build;
    if (o !== undefined && m !== undefined) {
      const parts = [
        `build ${ratio(o.buildMs, m.buildMs, 'faster', 'slower')}`,
        `heap ${ratio(o.heapBytes, m.heapBytes, 'smaller', 'larger')}`,
      ];
      if (mastra?.ok) {
        const r = mastra.result;
        parts.push(
          `search ${ratio(o.medianSearchMs, r.medianSearchMs, 'faster', 'slower')} (median)`,
          `${ratio(o.p90SearchMs, r.p90SearchMs, 'faster', 'slower')} (p90)`,
        );
      }
      console.log(`\nToolIndex vs Mastra: ${parts.join(', ')}`);
    }
    console.log('');
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
