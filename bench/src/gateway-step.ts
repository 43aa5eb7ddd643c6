/**
 * The gateway's cost per agent step, at 1,000 and 10,000 upstream tools: one `tools/list` plus
 * one `search_tools` call, made by an MCP client over the SDK's in-memory transport (JSON-RPC,
 * validation and the gateway's work included; no socket or process noise). The catalog is the
 * dev-bfcl catalog repeated with numbered ids (as in `bench:speed`), served from a warm manifest
 * cache, so no upstream runs. Three tools are loaded first, as in a working session.
 *
 * Side by side, Mastra's `ToolSearchProcessor` does the same step in the same process: one
 * `processInputStep` (which gives the step's tools) plus one `search_tools.execute`, over the
 * same catalog as real `createTool` tools, with three tools loaded through its `load_tool`.
 *
 * Usage: `pnpm bench:gateway:step [--sizes 1000,10000] [--steps 200] [--warmup 30]`.
 */
import { ToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool, noopObserve } from '@mastra/core/tools';
import { type DataTool, loadDataSet, repeatCatalog, SPEED_DATA_FILE, spread } from './data';
import { count, markdownTable, ms, ratio } from './format';
import { percentile, startInProcessGateway } from './gateway-shared';
import { minimalStepArgs } from './rankers';

interface Options {
  sizes: number[];
  steps: number;
  warmup: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { sizes: [1_000, 10_000], steps: 200, warmup: 30 };
  for (let index = 0; index < argv.length; index += 2) {
    const value = argv[index + 1] ?? '';
    if (argv[index] === '--sizes') options.sizes = value.split(',').map(Number);
    else if (argv[index] === '--steps') options.steps = Number(value);
    else if (argv[index] === '--warmup') options.warmup = Number(value);
    else throw new Error(`unknown flag ${argv[index]}`);
  }
  return options;
}

/** One step's function and how long making it ready took. */
interface Stepper {
  buildMs: number;
  step(query: string): Promise<void>;
  close(): Promise<void>;
}

async function gatewayStepper(
  catalog: readonly DataTool[],
  loaded: readonly string[],
): Promise<Stepper> {
  const { client, readyMs, close } = await startInProcessGateway(catalog);
  await client.request({
    method: 'tools/call',
    params: { name: 'load_tool', arguments: { toolNames: loaded.map((id) => `catalog__${id}`) } },
  });
  return {
    buildMs: readyMs,
    async step(query) {
      await client.request({ method: 'tools/list', params: {} });
      await client.request({
        method: 'tools/call',
        params: { name: 'search_tools', arguments: { query } },
      });
    },
    close,
  };
}

type MastraInputSchema = NonNullable<Parameters<typeof createTool>[0]['inputSchema']>;
type MastraExecute = (input: unknown, context: unknown) => Promise<unknown>;

async function mastraStepper(
  catalog: readonly DataTool[],
  loaded: readonly string[],
): Promise<Stepper> {
  const tools: ConstructorParameters<typeof ToolSearchProcessor>[0]['tools'] = {};
  for (const tool of catalog) {
    tools[tool.id] = createTool({
      id: tool.id,
      description: tool.description,
      ...(tool.inputSchema === undefined
        ? {}
        : { inputSchema: tool.inputSchema as MastraInputSchema }),
      execute: async () => ({}),
    });
  }
  const began = performance.now();
  const processor = new ToolSearchProcessor({ tools, search: { topK: 5 } });
  const requestContext = new RequestContext();
  // Mastra reads the thread from this reserved key; one thread, as the gateway's session is one.
  requestContext.set('mastra__threadId', 'bench-thread');
  const first = await processor.processInputStep(minimalStepArgs(requestContext));
  const buildMs = performance.now() - began;
  const context = { requestContext, observe: noopObserve };
  const loadTool = first.tools.load_tool?.execute as MastraExecute | undefined;
  if (!loadTool) throw new Error('Mastra offered no load_tool');
  await loadTool({ toolNames: [...loaded] }, context);
  return {
    buildMs,
    async step(query) {
      const step = await processor.processInputStep(minimalStepArgs(requestContext));
      const search = step.tools.search_tools?.execute as MastraExecute | undefined;
      if (!search) throw new Error('Mastra offered no search_tools');
      await search({ query }, context);
    },
    async close() {},
  };
}

async function time(
  stepper: Stepper,
  queries: readonly string[],
  warmup: number,
): Promise<number[]> {
  for (const query of queries.slice(0, warmup)) await stepper.step(query);
  const times: number[] = [];
  for (const query of queries) {
    const began = performance.now();
    await stepper.step(query);
    times.push(performance.now() - began);
  }
  return times;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const data = loadDataSet(SPEED_DATA_FILE);
  const queries = spread(data.queries, options.steps).map((query) => query.query);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const size of options.sizes) {
    const catalog = repeatCatalog(data.tools, size);
    const loaded = [catalog[0]!.id, catalog[1]!.id, catalog[2]!.id];
    const results: { label: string; buildMs: number; times: number[] }[] = [];
    for (const [label, make] of [
      ['tool-search-mcp gateway (MCP, in-memory transport)', gatewayStepper],
      ['Mastra ToolSearchProcessor (in process, no MCP)', mastraStepper],
    ] as const) {
      const stepper = await make(catalog, loaded);
      const times = await time(stepper, queries, options.warmup);
      await stepper.close();
      results.push({ label, buildMs: stepper.buildMs, times });
      rows.push([
        label,
        count(size),
        ms(stepper.buildMs),
        ms(percentile(times, 50)),
        ms(percentile(times, 90)),
      ]);
    }
    const [ours, mastra] = results;
    notes.push(
      `${count(size)} tools: the gateway's step p50 is ${ratio(percentile(ours!.times, 50), percentile(mastra!.times, 50), 'faster', 'slower')} than Mastra's.`,
    );
  }
  console.log(
    `## Per-step cost: tools/list + one search_tools (${options.steps} steps after ${options.warmup} warm-up, node ${process.version})\n`,
  );
  console.log(
    markdownTable(['implementation', 'tools', 'ready ms', 'step p50 ms', 'step p90 ms'], rows),
  );
  console.log(`\n${notes.join('\n')}`);
  console.log(
    '\n"ready ms": the gateway reading its cached manifest and indexing it; Mastra\'s constructor plus its first processInputStep.',
  );
}

await main();
