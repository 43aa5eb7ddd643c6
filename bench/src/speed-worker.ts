/**
 * One speed measurement in a fresh process, so heap figures are not polluted by other indexes:
 * `node --expose-gc --import ./src/register-ts.ts src/speed-worker.ts <ranker> <size> <queries>
 * <warmup> <searchBudgetSeconds> [dataFile]`. Prints JSON lines on stdout: a `BuildReport` as soon as the
 * index is built, then a `SpeedResult`. Started by `speed.ts`.
 */
import { performance } from 'node:perf_hooks';
import { loadDataSet, repeatCatalog, SPEED_DATA_FILE, spread } from './data';
import { rankerByKey } from './rankers';
import { median, percentile } from './statistics';

/** What a worker reports once the index is built. */
export interface BuildReport {
  phase: 'build';
  ranker: string;
  size: number;
  /** Time of the first build in this process: what an application pays at startup. */
  buildMs: number;
  /**
   * Memory the index holds: `heapUsed` plus `arrayBuffers` (where typed arrays keep their data)
   * after the build, minus before it, both after full GCs, the index still referenced.
   */
  heapBytes: number;
}

/** What a worker reports at the end. */
export interface SpeedResult extends Omit<BuildReport, 'phase'> {
  phase: 'done';
  medianSearchMs: number;
  p90SearchMs: number;
  /** Timed searches: all the queries, or fewer when the search budget ran out. */
  searches: number;
}

function fullGc(): void {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  gc();
}

/** The JavaScript heap in use plus ArrayBuffer memory: what an index holds, in whichever form. */
function heldMemory(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

async function main(argv: readonly string[]): Promise<void> {
  const [key, sizeText, queriesText, warmupText, budgetText, dataFile] = argv;
  const ranker = key === undefined ? undefined : rankerByKey(key);
  if (ranker === undefined) throw new Error(`unknown ranker ${key}`);
  const size = Number(sizeText);
  const queryCount = Number(queriesText ?? 200);
  const warmup = Number(warmupText ?? 50);
  const budgetMs = Number(budgetText ?? 120) * 1000;

  const data = loadDataSet(dataFile ?? SPEED_DATA_FILE);
  const catalog = repeatCatalog(data.tools, size);
  const queries = spread(data.queries, queryCount).map((q) => q.query);
  const prepared = ranker.prepare(catalog);

  fullGc();
  const heapBefore = heldMemory();
  const started = performance.now();
  const searcher = await prepared.build();
  const buildMs = performance.now() - started;
  fullGc();
  const heapBytes = heldMemory() - heapBefore;
  const build: BuildReport = { phase: 'build', ranker: ranker.key, size, buildMs, heapBytes };
  process.stdout.write(`${JSON.stringify(build)}\n`);

  // Warm up, then time each query; both stop early when the budget is spent (a quarter of it
  // for the warm-up), so a slow ranker still reports figures over the searches it managed.
  const searchStart = performance.now();
  for (let i = 0; i < warmup && performance.now() - searchStart < budgetMs / 4; i++) {
    await searcher.search(queries[i % queries.length]!);
  }
  const timedStart = performance.now();
  const times: number[] = [];
  for (const query of queries) {
    if (times.length > 0 && performance.now() - timedStart > budgetMs) break;
    const t0 = performance.now();
    await searcher.search(query);
    times.push(performance.now() - t0);
  }

  const result: SpeedResult = {
    ...build,
    phase: 'done',
    medianSearchMs: median(times),
    p90SearchMs: percentile(times, 90),
    searches: times.length,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // Mastra's in-memory state store keeps an unref'd interval; exit explicitly all the same.
  process.exit(0);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
