/**
 * Bounded resources in one process, as figures (nothing is gated on them):
 * 1. 100,000 threads, each loading three tools through `load_tool`, into the engine's in-memory
 *    store: the heap after GC before and after, with the store's default cap (`maxThreads`
 *    10,000: what a server keeps however many thread ids arrive) and with the cap raised to
 *    100,000 (what one thread costs).
 * 2. 1,000,000 searches through sessions of 1,000 threads, with a load every 100 searches: the
 *    heap after GC sampled every 100,000 searches. A flat series means no growth: no per-search
 *    state is kept (sessions, filter answers, request indexes, query caches).
 *
 * Usage: `pnpm bench:resources` (both this and the Redis one), or `node --expose-gc ...
 * src/resources-memory.ts [--threads 100000] [--searches 1000000]`.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createToolSearchEngine, type ToolSearchEngine } from 'tool-search-core';
import { type DataTool, loadDataSet, SPEED_DATA_FILE } from './data';
import { count, markdownTable, megabytes } from './format';
import { heapAfterGc, parseCount } from './resources-shared';

/** Threads the search part cycles through: many requests, a bounded set of conversations. */
const SEARCH_THREADS = 1_000;
/** One load per this many searches: the loads a real agent makes between searches. */
const LOAD_EVERY = 100;
/** Heap samples taken over the search part. */
const SAMPLES = 10;
/** Tools each thread loads in the threads part. */
const TOOLS_PER_THREAD = 3;
/** Synthetic catalog size when the shared data set is missing. */
const SYNTHETIC_TOOLS = 1_000;

function catalog(): { tools: DataTool[]; queries: string[] } {
  if (existsSync(SPEED_DATA_FILE)) {
    const data = loadDataSet(SPEED_DATA_FILE);
    return { tools: data.tools, queries: data.queries.map((query) => query.query) };
  }
  const tools = Array.from({ length: SYNTHETIC_TOOLS }, (_, index) => ({
    id: `tool_${index}`,
    description: `Synthetic tool number ${index} for the resource benchmark`,
  }));
  return { tools, queries: ['synthetic tool', 'number 42', 'resource benchmark'] };
}

function engineFor(tools: DataTool[], maxThreads: number): ToolSearchEngine<DataTool> {
  return createToolSearchEngine<DataTool>({
    tools: Object.fromEntries(tools.map((tool) => [tool.id, tool])),
    describe: (tool) => tool,
    maxThreads,
  });
}

async function execute(
  engine: ToolSearchEngine<DataTool>,
  threadId: string,
  name: 'search_tools' | 'load_tool',
  input: unknown,
): Promise<unknown> {
  const session = engine.createSession({ threadId });
  return session.metaTools.find((tool) => tool.name === name)!.execute(input);
}

async function threadsPart(tools: DataTool[], threads: number): Promise<string[][]> {
  const rows: string[][] = [];
  for (const maxThreads of [10_000, threads]) {
    const engine = engineFor(tools, maxThreads);
    const before = heapAfterGc();
    const started = performance.now();
    for (let index = 0; index < threads; index++) {
      const toolNames = Array.from(
        { length: TOOLS_PER_THREAD },
        (_, offset) => tools[(index * TOOLS_PER_THREAD + offset) % tools.length]!.id,
      );
      await execute(engine, `thread-${index}`, 'load_tool', { toolNames });
    }
    const seconds = (performance.now() - started) / 1000;
    const after = heapAfterGc();
    const kept = engine.getStateStats().threadCount;
    rows.push([
      count(maxThreads),
      count(threads),
      count(kept),
      megabytes(after - before),
      kept > 0 ? `${Math.round((after - before) / kept)}` : 'n/a',
      seconds.toFixed(1),
    ]);
    engine.dispose();
  }
  return rows;
}

async function searchesPart(
  tools: DataTool[],
  queries: string[],
  searches: number,
): Promise<string[][]> {
  const engine = engineFor(tools, 10_000);
  const rows: string[][] = [];
  const every = Math.max(1, Math.floor(searches / SAMPLES));
  const started = performance.now();
  rows.push(['0', megabytes(heapAfterGc()), '0.0']);
  for (let index = 1; index <= searches; index++) {
    const threadId = `thread-${index % SEARCH_THREADS}`;
    await execute(engine, threadId, 'search_tools', { query: queries[index % queries.length] });
    if (index % LOAD_EVERY === 0)
      await execute(engine, threadId, 'load_tool', { toolName: tools[index % tools.length]!.id });
    if (index % every === 0)
      rows.push([
        count(index),
        megabytes(heapAfterGc()),
        ((performance.now() - started) / 1000).toFixed(1),
      ]);
  }
  engine.dispose();
  return rows;
}

async function main(): Promise<void> {
  const threads = parseCount(process.argv, '--threads', 100_000);
  const searches = parseCount(process.argv, '--searches', 1_000_000);
  const { tools, queries } = catalog();
  console.log(
    `# Resources in one process (${count(tools.length)} tools, Node ${process.version})\n`,
  );
  console.log(`## ${count(threads)} threads × ${TOOLS_PER_THREAD} loaded tools, in-memory store\n`);
  console.log(
    markdownTable(
      [
        'maxThreads',
        'threads seen',
        'threads kept',
        'heap growth (MB)',
        'bytes / kept thread',
        's',
      ],
      await threadsPart(tools, threads),
    ),
  );
  console.log(
    `\n## ${count(searches)} searches over ${count(SEARCH_THREADS)} threads, a load every ${LOAD_EVERY}: heap after GC\n`,
  );
  console.log(
    markdownTable(['searches', 'heap (MB)', 's'], await searchesPart(tools, queries, searches)),
  );
}

await main();
