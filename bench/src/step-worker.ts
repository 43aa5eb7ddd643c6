/**
 * One per-step measurement in a fresh process: `node --import ./src/register-ts.ts
 * src/step-worker.ts <adapter> <static|resolved> <size> <steps> <warmup> <budgetSeconds> <dataFile>
 * [warmupSeconds]`: warms up for at least `warmup` steps and `warmupSeconds`.
 * Prints one JSON line (`StepResult`). Started by `speed.ts`.
 */
import { performance } from 'node:perf_hooks';
import { loadDataSet, repeatCatalog, spread } from './data';
import { median, percentile } from './statistics';
import { type CatalogMode, searchCounts, stepAdapterByKey } from './steps';

/** What a step worker reports. */
export interface StepResult {
  adapter: string;
  mode: CatalogMode;
  size: number;
  /** Creating the adapter (the static catalog's index, when there is one). */
  setupMs: number;
  medianStepMs: number;
  p90StepMs: number;
  /** Timed steps: all of them, or fewer when the budget ran out. */
  steps: number;
}

async function main(argv: readonly string[]): Promise<void> {
  const [key, modeText, sizeText, stepsText, warmupText, budgetText, dataFile, warmupSecondsText] =
    argv;
  const adapter = key === undefined ? undefined : stepAdapterByKey(key);
  if (adapter === undefined) throw new Error(`unknown adapter ${key}`);
  if (modeText !== 'static' && modeText !== 'resolved') throw new Error(`unknown mode ${modeText}`);
  if (dataFile === undefined) throw new Error('no data file');
  const size = Number(sizeText);
  const stepCount = Number(stepsText);
  const warmup = Number(warmupText);
  const warmupMs = Number(warmupSecondsText ?? 0) * 1000;
  const budgetMs = Number(budgetText) * 1000;

  const data = loadDataSet(dataFile);
  const queries = spread(data.queries, Math.max(stepCount, warmup)).map((query) => query.query);
  const prepared = adapter.prepare(repeatCatalog(data.tools, size), modeText);
  const started = performance.now();
  const runner = await prepared.setup();
  const setupMs = performance.now() - started;

  // At least `warmup` steps and `warmupMs` of them: every adapter gets the same time to compile
  // its code (a gateway step crosses the MCP SDK's client and server), within a quarter of the budget.
  const warmStart = performance.now();
  for (let i = 0; ; i++) {
    const elapsed = performance.now() - warmStart;
    if ((i >= warmup && elapsed >= warmupMs) || elapsed >= budgetMs / 4) break;
    await runner.next(queries[i % queries.length]!)();
  }
  const times: number[] = [];
  const timedStart = performance.now();
  for (let i = 0; i < stepCount; i++) {
    if (times.length > 0 && performance.now() - timedStart > budgetMs) break;
    const step = runner.next(queries[i % queries.length]!);
    const t0 = performance.now();
    await step();
    times.push(performance.now() - t0);
  }
  // Most queries of the data find something; a run where most found nothing searched no catalog.
  if (searchCounts.found < searchCounts.searches / 2) {
    throw new Error(`only ${searchCounts.found} of ${searchCounts.searches} searches found a tool`);
  }
  const result: StepResult = {
    adapter: adapter.key,
    mode: modeText,
    size,
    setupMs,
    medianStepMs: median(times),
    p90StepMs: percentile(times, 90),
    steps: times.length,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
