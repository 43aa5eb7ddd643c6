/**
 * Load test of the engine's per-step work with each store: N concurrent threads × M steps, where a
 * step is what an agent server does around one model call: `activeTools()`, a `search_tools`, a
 * `load_tool` of the top hit every few steps, and `isActive()` for the tool the model calls. All
 * threads run at once in this process, so Redis round trips overlap as on a busy server; the
 * stores run side by side on the same catalog and queries.
 *
 * Usage: `pnpm bench:load [--threads 100] [--steps 50] [--load-every 4] [--max-loaded 8]
 * [--redis-url redis://127.0.0.1:6379]`. Without `--redis-url` a throwaway `redis-server` from
 * PATH is started (no persistence); without one, only the memory store runs.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import {
  createMemoryStore,
  createToolSearchEngine,
  type LoadedToolsStore,
  type SearchToolsOutput,
} from 'tool-search-core';
import {
  createRedisStore,
  recommendedIoRedisOptions,
  recommendedNodeRedisOptions,
} from 'tool-search-redis';
import {
  hasRedisServer,
  type RedisServer,
  startRedisServer,
} from 'tool-search-testing/redis-server';
import { type DataTool, loadDataSet, SPEED_DATA_FILE, spread } from './data';
import { count, markdownTable, ms } from './format';

interface Options {
  threads: number;
  steps: number;
  loadEvery: number;
  maxLoaded: number;
  redisUrl: string | undefined;
}

/** Warm-up steps before each timed run, spread over its threads: JIT, connections, Redis's script cache. */
const WARMUP_STEPS = 200;
/** Keys the load test writes expire after a minute, so a shared Redis is left clean. */
const BENCH_TTL_MS = 60_000;
/** The single-thread run takes this many times the steps of one concurrent thread, for stable percentiles. */
const SOLO_STEP_FACTOR = 10;
/** Synthetic catalog size when the shared data set is missing. */
const SYNTHETIC_TOOLS = 1_000;

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    threads: 100,
    steps: 50,
    loadEvery: 4,
    maxLoaded: 8,
    redisUrl: undefined,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--redis-url') {
      options.redisUrl = value;
      continue;
    }
    const number = Number(value);
    if (!(Number.isInteger(number) && number >= 1))
      throw new Error(`${flag} takes a positive integer`);
    if (flag === '--threads') options.threads = number;
    else if (flag === '--steps') options.steps = number;
    else if (flag === '--load-every') options.loadEvery = number;
    else if (flag === '--max-loaded') options.maxLoaded = number;
    else throw new Error(`unknown option ${flag}`);
  }
  return options;
}

function catalogAndQueries(): { tools: DataTool[]; queries: string[]; source: string } {
  if (existsSync(SPEED_DATA_FILE)) {
    const data = loadDataSet(SPEED_DATA_FILE);
    return {
      tools: data.tools,
      queries: spread(data.queries, 500).map((query) => query.query),
      source: `${data.name} (${count(data.tools.length)} tools)`,
    };
  }
  const tools = Array.from({ length: SYNTHETIC_TOOLS }, (_, index) => ({
    id: `tool_${index}`,
    description: `Synthetic tool number ${index} for topic ${index % 37}`,
  }));
  return {
    tools,
    queries: Array.from({ length: 500 }, (_, index) => `topic ${index % 37} number ${index}`),
    source: `synthetic (${count(SYNTHETIC_TOOLS)} tools)`,
  };
}

interface Scenario {
  name: string;
  open(): Promise<{ storage: LoadedToolsStore; close(): Promise<void> }>;
}

interface Measurement {
  name: string;
  steps: number;
  wallMs: number;
  stepMs: number[];
  errors: number;
}

async function measure(
  scenario: Scenario,
  tools: DataTool[],
  queries: string[],
  options: Options,
): Promise<Measurement> {
  const { storage, close } = await scenario.open();
  let errors = 0;
  const engine = createToolSearchEngine<DataTool>({
    tools: Object.fromEntries(tools.map((tool) => [tool.id, tool])),
    describe: (tool) => tool,
    storage,
    maxLoadedTools: options.maxLoaded,
    onError: () => errors++,
  });
  const runThread = async (threadId: string, steps: number, offset: number, times?: number[]) => {
    let lastLoaded: string | undefined;
    for (let step = 0; step < steps; step++) {
      const started = performance.now();
      const session = engine.createSession({ threadId });
      await session.activeTools();
      const [search, load] = session.metaTools;
      const query = queries[(offset + step) % queries.length]!;
      const found = (await search!.execute({ query })) as SearchToolsOutput;
      const top = found.results[0]?.name;
      if (top !== undefined && step % options.loadEvery === 0) {
        await load!.execute({ toolName: top });
        lastLoaded = top;
      }
      if (lastLoaded !== undefined) await session.isActive(lastLoaded);
      times?.push(performance.now() - started);
    }
  };
  const run = `${process.pid}-${Date.now()}`;
  try {
    await Promise.all(
      Array.from({ length: options.threads }, (_, thread) =>
        runThread(`warmup-${run}-${thread}`, Math.ceil(WARMUP_STEPS / options.threads), thread * 7),
      ),
    );
    errors = 0;
    const stepMs: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.threads }, (_, thread) =>
        runThread(`thread-${run}-${thread}`, options.steps, thread * 13, stepMs),
      ),
    );
    const wallMs = performance.now() - started;
    return { name: scenario.name, steps: stepMs.length, wallMs, stepMs, errors };
  } finally {
    engine.dispose();
    await close();
  }
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const { tools, queries, source } = catalogAndQueries();
  let local: RedisServer | undefined;
  let redisUrl = options.redisUrl;
  if (!redisUrl && hasRedisServer()) {
    local = await startRedisServer();
    redisUrl = `redis://127.0.0.1:${local.port}`;
  }
  const keyPrefix = `bench-load-${process.pid}:`;
  const scenarios: Scenario[] = [
    {
      name: 'memory (createMemoryStore)',
      open: async () => {
        const store = createMemoryStore();
        return { storage: store, close: async () => store.dispose() };
      },
    },
  ];
  if (redisUrl) {
    const url = redisUrl;
    scenarios.push(
      {
        name: 'Redis, ioredis client',
        open: async () => {
          const client = new Redis(url, { ...recommendedIoRedisOptions, lazyConnect: true });
          await client.connect();
          return {
            storage: createRedisStore({ client, keyPrefix, ttl: BENCH_TTL_MS }),
            close: async () => void client.disconnect(),
          };
        },
      },
      {
        name: 'Redis, node-redis client',
        open: async () => {
          const client = createClient({ url, ...recommendedNodeRedisOptions });
          client.on('error', () => {});
          await client.connect();
          return {
            storage: createRedisStore({ client, keyPrefix, ttl: BENCH_TTL_MS }),
            close: async () => void client.destroy(),
          };
        },
      },
    );
  } else {
    console.log('load: redis-server is not on PATH and no --redis-url given: memory store only');
  }

  // One thread alone shows each store's own cost per step; many at once show throughput.
  const runs = [
    { threads: 1, steps: options.steps * SOLO_STEP_FACTOR },
    { threads: options.threads, steps: options.steps },
  ];
  const tables: string[] = [];
  try {
    for (const run of runs) {
      const results: Measurement[] = [];
      for (const scenario of scenarios) {
        results.push(await measure(scenario, tools, queries, { ...options, ...run }));
      }
      tables.push(
        `\n### ${run.threads} ${run.threads === 1 ? 'thread' : 'concurrent threads'} × ${run.steps} steps\n\n${report(results)}`,
      );
    }
  } finally {
    await local?.dispose();
  }
  console.log(
    `\n## Load (load every ${options.loadEvery} steps, maxLoadedTools ${options.maxLoaded}; ${source}; ` +
      `node ${process.version}; Redis on loopback${options.redisUrl ? '' : ', started by the test, no persistence'})`,
  );
  console.log(tables.join('\n'));
  console.log(
    '\nA step: activeTools() + search_tools + load_tool now and then + isActive() (which refreshes ' +
      'the tool for the budget). With many threads, a step also waits for the others: all share one event loop.',
  );
}

function report(results: Measurement[]): string {
  const sortedOf = (result: Measurement) => [...result.stepMs].sort((a, b) => a - b);
  const baseline = sortedOf(results[0]!);
  return markdownTable(
    ['store', 'steps', 'steps/s', 'p50 step ms', 'p99 step ms', 'p50 vs memory', 'store errors'],
    results.map((result, position) => {
      const sorted = sortedOf(result);
      const delta = percentile(sorted, 0.5) - percentile(baseline, 0.5);
      return [
        result.name,
        count(result.steps),
        count(Math.round((result.steps / result.wallMs) * 1000)),
        ms(percentile(sorted, 0.5)),
        ms(percentile(sorted, 0.99)),
        position === 0 ? '' : `${delta >= 0 ? '+' : '−'}${ms(Math.abs(delta))} ms`,
        count(result.errors),
      ];
    }),
  );
}

await main();
