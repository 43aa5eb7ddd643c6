/**
 * What semantic search (`embed`) adds to one `search_tools` call at 10,000 tools, beyond the
 * embedder's own time: the same engine searched with BM25F alone and with fusion, the embedder a
 * fake that answers at once (a hashed bag of words), at several vector dimensions.
 *
 * Usage: `pnpm bench:fusion [--size 10000] [--queries 200] [--warmup 50] [--dimensions 64,384,1536]`.
 * Tool vectors are computed before timing (`engine.warmEmbeddings()`); every timed query is new to
 * the engine, so each timed search embeds its query once, as a search in production does.
 */
import { performance } from 'node:perf_hooks';
import {
  createToolSearchEngine,
  type EmbedFunction,
  type SearchToolsOutput,
  type ToolDescriptor,
} from 'tool-search-core';
import { type DataTool, loadDataSet, repeatCatalog, SPEED_DATA_FILE, spread } from './data';
import { count, markdownTable, ms } from './format';
import { median, percentile } from './metrics';

interface Options {
  size: number;
  queries: number;
  warmup: number;
  dimensions: number[];
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { size: 10_000, queries: 200, warmup: 50, dimensions: [64, 384, 1536] };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--size') options.size = Number(value);
    else if (flag === '--queries') options.queries = Number(value);
    else if (flag === '--warmup') options.warmup = Number(value);
    else if (flag === '--dimensions') options.dimensions = value.split(',').map(Number);
    else throw new Error(`unknown option ${flag}`);
  }
  for (const number of [options.size, options.queries, options.warmup, ...options.dimensions]) {
    if (!Number.isInteger(number) || number < 0) throw new Error('options take whole numbers');
  }
  return options;
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

/** Median and p90 ms of `search_tools` over the queries, after a warm-up on other queries. */
async function timeSearches(
  engine: ReturnType<typeof createToolSearchEngine<DataTool>>,
  warmup: readonly string[],
  queries: readonly string[],
): Promise<{ median: number; p90: number }> {
  const searchTools = engine.createSession().metaTools[0]!;
  for (const query of warmup) await searchTools.execute({ query });
  const times: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    const output = (await searchTools.execute({ query })) as SearchToolsOutput;
    times.push(performance.now() - started);
    if (!Array.isArray(output.results)) throw new Error('search_tools failed');
  }
  return { median: median(times), p90: percentile(times, 90) };
}

async function main(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const data = loadDataSet(SPEED_DATA_FILE);
  const catalog = repeatCatalog(data.tools, options.size);
  const tools = Object.fromEntries(catalog.map((tool) => [tool.id, tool]));
  const picked = spread(data.queries, options.queries + options.warmup).map((q) => q.query);
  const warmup = picked.slice(0, options.warmup);
  const queries = picked.slice(options.warmup);

  const textOnly = createToolSearchEngine<DataTool>({ tools, describe: describeTool });
  const baseline = await timeSearches(textOnly, warmup, queries);
  const rows: string[][] = [
    ['BM25F alone (no `embed`)', '', ms(baseline.median), ms(baseline.p90), '', '', ''],
  ];
  for (const dimension of options.dimensions) {
    const embed = createFakeEmbed(dimension);
    const engine = createToolSearchEngine<DataTool>({ tools, describe: describeTool, embed });
    const warmStarted = performance.now();
    await engine.warmEmbeddings();
    const warmMs = performance.now() - warmStarted;
    const fused = await timeSearches(engine, warmup, queries);
    // The embedder's own time per query, measured apart on the same queries.
    const ownTimes: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      await embed([query]);
      ownTimes.push(performance.now() - started);
    }
    const own = median(ownTimes);
    rows.push([
      `fused, ${dimension} dimensions`,
      ms(warmMs),
      ms(fused.median),
      ms(fused.p90),
      ms(own),
      ms(fused.median - baseline.median - own),
      ms(fused.p90 - baseline.p90 - own),
    ]);
  }
  console.log(
    `# Fusion overhead (${count(options.size)} tools, dev-bfcl repeated; ${queries.length} timed searches after ${warmup.length} warm-up searches; node ${process.version})\n`,
  );
  console.log(
    markdownTable(
      [
        'search_tools',
        'warmEmbeddings ms',
        'median ms',
        'p90 ms',
        'embedder ms (median)',
        'overhead ms (median)',
        'overhead ms (p90)',
      ],
      rows,
    ),
  );
  console.log(
    '\noverhead = fused − BM25F alone − the embedder’s own time for the query; the fake embedder answers at once, a real one adds its network or model time.',
  );
}

if (import.meta.main)
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
