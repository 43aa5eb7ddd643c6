/**
 * What semantic search (`embed`) adds to one `search_tools` call at 10,000 tools, beyond the
 * embedder's own time: the same catalog searched with BM25F alone and with fusion, the embedder a
 * fake that answers at once (a hashed bag of words), at several vector dimensions, with the
 * WebAssembly SIMD similarity kernel and with the JavaScript one (`fusion.kernel: 'js'`, what
 * runs where WebAssembly cannot).
 *
 * Usage: `pnpm bench:fusion [--size 10000] [--queries 200] [--warmup 50] [--dimensions 64,384,1536]
 * [--kernel auto,js]`. Tool vectors are computed before timing (`engine.warmEmbeddings()`); every
 * timed query is new to each engine, so each timed search embeds its query once, as a search in
 * production does. The engines take turns, 25 queries at a time, so a busy machine slows them alike.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  createToolSearchEngine,
  type EmbedFunction,
  type SearchToolsOutput,
  type ToolDescriptor,
} from 'tool-search-core';
import { type DataTool, loadDataSet, repeatCatalog, SPEED_DATA_FILE, spread } from './data';
import { count, markdownTable, ms } from './format';
import { median, percentile } from './statistics';

type Kernel = 'auto' | 'js';

interface Options {
  size: number;
  queries: number;
  warmup: number;
  dimensions: number[];
  kernels: Kernel[];
}

/** Queries a runner answers in a row before the next one takes its turn. */
const TURN_QUERIES = 25;

const KERNEL_NAMES: Record<Kernel, string> = {
  auto: 'WebAssembly SIMD',
  js: 'JavaScript kernel',
};

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    size: 10_000,
    queries: 200,
    warmup: 50,
    dimensions: [64, 384, 1536],
    kernels: ['auto', 'js'],
  };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--size') options.size = Number(value);
    else if (flag === '--queries') options.queries = Number(value);
    else if (flag === '--warmup') options.warmup = Number(value);
    else if (flag === '--dimensions') options.dimensions = value.split(',').map(Number);
    else if (flag === '--kernel') options.kernels = value.split(',').map(toKernel);
    else throw new Error(`unknown option ${flag}`);
  }
  for (const number of [options.size, options.queries, options.warmup, ...options.dimensions]) {
    if (!Number.isInteger(number) || number < 0) throw new Error('options take whole numbers');
  }
  return options;
}

function toKernel(name: string): Kernel {
  if (name === 'auto' || name === 'wasm') return 'auto';
  if (name === 'js') return 'js';
  throw new Error(`--kernel takes auto (or wasm) and js, got ${name}`);
}

/**
 * A fake embedding model: each word adds a pseudo-random ±1 pattern (seeded by the word) to the
 * vector. Fast and deterministic; its rankings mean nothing, its cost is what is measured apart.
 */
export function createFakeEmbed(dimension: number): EmbedFunction {
  const wordVectors = new Map<string, Float32Array>();
  const wordVector = (word: string): Float32Array => {
    let vector = wordVectors.get(word);
    if (!vector) {
      vector = new Float32Array(dimension);
      let seed = 2166136261;
      for (let i = 0; i < word.length; i++) seed = Math.imul(seed ^ word.charCodeAt(i), 16777619);
      for (let i = 0; i < dimension; i++) {
        seed = Math.imul(seed ^ (seed >>> 15), 2246822519) ^ i;
        vector[i] = seed & 1 ? 1 : -1;
      }
      wordVectors.set(word, vector);
    }
    return vector;
  };
  return async (texts) =>
    texts.map((text) => {
      const vector = new Array<number>(dimension).fill(0);
      for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? ['']) {
        const add = wordVector(word);
        for (let i = 0; i < dimension; i++) vector[i]! += add[i]!;
      }
      return vector;
    });
}

function describeTool(tool: DataTool): ToolDescriptor {
  return tool.inputSchema === undefined
    ? { id: tool.id, description: tool.description }
    : { id: tool.id, description: tool.description, inputSchema: tool.inputSchema };
}

type Engine = ReturnType<typeof createToolSearchEngine<DataTool>>;
type SearchTools = (query: string) => Promise<unknown>;

function searcher(engine: Engine): SearchTools {
  const searchTools = engine.createSession().metaTools[0]!;
  return async (query) => {
    const output = (await searchTools.execute({ query })) as SearchToolsOutput;
    if (!Array.isArray(output.results)) throw new Error('search_tools failed');
  };
}

/** Each call's wall-clock and CPU time (ms), for one runner. */
interface Times {
  wall: number[];
  cpu: number[];
}

/**
 * Times each runner on every query, the runners taking turns in blocks of queries (after a
 * warm-up on other queries): a block keeps a runner's data warm in the caches, as a process that
 * searches one engine has it, while turns spread a busy machine's slow moments over every runner.
 * CPU time is the process's (every thread), read around each call: it shows the work done, where
 * wall-clock time adds the waits for a core.
 */
async function timeInTurns(
  runners: readonly SearchTools[],
  warmup: readonly string[],
  queries: readonly string[],
): Promise<Times[]> {
  for (const run of runners) for (const query of warmup) await run(query);
  const times = runners.map((): Times => ({ wall: [], cpu: [] }));
  for (let start = 0; start < queries.length; start += TURN_QUERIES) {
    const block = queries.slice(start, start + TURN_QUERIES);
    for (const [position, run] of runners.entries()) {
      for (const query of block) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        await run(query);
        times[position]!.wall.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        times[position]!.cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  return times;
}

/** Median wall, p90 wall and median CPU ms. */
function summary(times: Times): [number, number, number] {
  return [median(times.wall), percentile(times.wall, 90), median(times.cpu)];
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const data = loadDataSet(SPEED_DATA_FILE);
  const catalog = repeatCatalog(data.tools, options.size);
  const tools = Object.fromEntries(catalog.map((tool) => [tool.id, tool]));
  const picked = spread(data.queries, options.queries + options.warmup).map((q) => q.query);
  const loadBefore = loadavg()[0]!;

  const rows: string[][] = [];
  for (const dimension of options.dimensions) {
    const embed = createFakeEmbed(dimension);
    const runners: SearchTools[] = [
      searcher(createToolSearchEngine<DataTool>({ tools, describe: describeTool })),
      // The embedder's own time per query, in the same turns.
      async (query) => {
        await embed([query]);
      },
    ];
    const warmMs: number[] = [];
    for (const kernel of options.kernels) {
      const engine = createToolSearchEngine<DataTool>({
        tools,
        describe: describeTool,
        embed,
        fusion: { kernel },
      });
      const warmStarted = performance.now();
      await engine.warmEmbeddings();
      warmMs.push(performance.now() - warmStarted);
      runners.push(searcher(engine));
    }
    // New query texts per dimension: each engine embeds every timed query once.
    const suffix = ` (${dimension})`;
    const warmup = picked.slice(0, options.warmup).map((query) => query + suffix);
    const queries = picked.slice(options.warmup).map((query) => query + suffix);
    const [baseline, own, ...fused] = (await timeInTurns(runners, warmup, queries)).map(summary);
    const cells = (values: readonly number[]) => values.map(ms);
    rows.push([String(dimension), 'BM25F alone (no `embed`)', '', ...cells(baseline!), '', '', '']);
    rows.push([String(dimension), 'the fake embedder alone', '', ...cells(own!), '', '', '']);
    for (const [position, kernel] of options.kernels.entries()) {
      const times = fused[position]!;
      rows.push([
        String(dimension),
        `fused, ${KERNEL_NAMES[kernel]}`,
        ms(warmMs[position]!),
        ...cells(times),
        // Median − median, p90 − p90 and CPU − CPU, less the embedder's median (its p90 for none).
        ...cells(
          times.map(
            (value, column) => value - baseline![column]! - own![column === 1 ? 0 : column]!,
          ),
        ),
      ]);
    }
  }
  const load = `load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`;
  console.log(
    `# Fusion overhead (${count(options.size)} tools, dev-bfcl repeated; ${options.queries} timed searches after ${options.warmup} warm-up searches, engines taking turns of ${TURN_QUERIES}; node ${process.version}; ${load})\n`,
  );
  console.log(
    markdownTable(
      [
        'dimensions',
        'search_tools',
        'warmEmbeddings ms',
        'median ms',
        'p90 ms',
        'CPU ms (median)',
        'overhead ms (median)',
        'overhead ms (p90)',
        'overhead CPU ms (median)',
      ],
      rows,
    ),
  );
  console.log(
    '\noverhead = fused − BM25F alone − the fake embedder’s own time (its median; all timed in the same turns). The fake embedder answers at once; a real one adds its network or model time. CPU ms counts the process’s work whether or not it waited for a core.',
  );
}

if (import.meta.main)
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
