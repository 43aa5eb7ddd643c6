/**
 * One agent step per adapter, driven through each framework's public hook the way its agent loop
 * calls it, so `step-worker.ts` can time what a user pays per step besides the model call: the
 * adapter's per-step hook (Mastra `processInputStep`, AI SDK `prepareStep`, LangChain
 * `wrapModelCall`) plus one `search_tools` call, as the framework would run it.
 *
 * Two catalogs per adapter: `static` (the catalog given when the adapter is created) and
 * `resolved` (the same tools resolved per request: Mastra's `includeResolvedTools`, the AI SDK's
 * `toolSearch.forRequest(tools)`, LangChain's `resolveTools`). Under `resolved` every step is a
 * new request whose tools are the same objects in a new record, as an MCP client that caches its
 * tool list hands them out.
 */
import { rmSync } from 'node:fs';
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool as langchainTool } from '@langchain/core/tools';
import { ToolSearchProcessor as MastraToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool, noopObserve } from '@mastra/core/tools';
import { tool as aiTool, jsonSchema, type Tool } from 'ai';
import { createToolSearch } from 'tool-search-ai-sdk';
import { toolSearchMiddleware } from 'tool-search-langchain';
import { ToolSearchProcessor } from 'tool-search-mastra';
import type { DataTool } from './data';
import { startInProcessGateway } from './gateway-shared';
import { minimalStepArgs } from './rankers';

/** Results per search in every adapter: the default of Mastra and of ours. */
const STEP_TOP_K = 5;

/** Where the catalog comes from. */
export type CatalogMode = 'static' | 'resolved';

/**
 * A ready adapter. `next(query)` makes a step's inputs (untimed: the framework makes them) and
 * returns the step itself (timed).
 */
export interface StepRunner {
  next(query: string): () => Promise<void>;
}

/** An adapter under test. */
export interface StepAdapter {
  key: string;
  label: string;
  /** The catalog modes it has; the others are shown as not applicable, with this reason. */
  modes?: { only: readonly CatalogMode[]; reason: string };
  /** Untimed: turns data tools into the framework's tools. Timed by the worker: `setup`. */
  prepare(tools: readonly DataTool[], mode: CatalogMode): { setup(): Promise<StepRunner> };
}

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];
type MastraInputSchema = NonNullable<Parameters<typeof createTool>[0]['inputSchema']>;
type MastraTools = ConstructorParameters<typeof MastraToolSearchProcessor>[0]['tools'];

function mastraTools(tools: readonly DataTool[]): MastraTools {
  const record: MastraTools = {};
  for (const tool of tools) {
    record[tool.id] = createTool({
      id: tool.id,
      description: tool.description,
      ...(tool.inputSchema !== undefined && {
        inputSchema: tool.inputSchema as MastraInputSchema,
      }),
      execute: async () => ({}),
    });
  }
  return record;
}

interface MastraLikeProcessor {
  processInputStep(
    args: ReturnType<typeof minimalStepArgs>,
  ): Promise<{ tools?: Record<string, unknown> } | unknown>;
}

/** Mastra's step: `processInputStep` with fresh step arguments, then `search_tools.execute`. */
function mastraStep(
  processor: MastraLikeProcessor,
  tools: MastraTools,
  mode: CatalogMode,
): StepRunner {
  const requestContext = new RequestContext();
  requestContext.set('mastra__threadId', 'bench-thread');
  const context = { requestContext, observe: noopObserve };
  return {
    next(query) {
      const args = minimalStepArgs(requestContext);
      // A new request each step: its tools are the same objects, in a record of its own.
      args.tools = mode === 'resolved' ? { ...tools } : {};
      return async () => {
        const result = (await processor.processInputStep(args)) as {
          tools: Record<string, { execute?: (input: unknown, context: unknown) => unknown }>;
        };
        const search = result.tools.search_tools?.execute;
        if (search === undefined) throw new Error('no search_tools in the step');
        checkResults(await search({ query }, context));
      };
    },
  };
}

const mastraBuiltin: StepAdapter = {
  key: 'mastra-builtin',
  label: 'Mastra ToolSearchProcessor (built-in)',
  prepare(data, mode) {
    const tools = mastraTools(data);
    return {
      async setup() {
        const processor = new MastraToolSearchProcessor({
          tools: mode === 'static' ? tools : {},
          includeResolvedTools: mode === 'resolved',
          search: { topK: STEP_TOP_K },
        });
        return mastraStep(processor, tools, mode);
      },
    };
  },
};

const mastraOurs: StepAdapter = {
  key: 'mastra',
  label: 'tool-search-mastra ToolSearchProcessor',
  prepare(data, mode) {
    const tools = mastraTools(data);
    return {
      async setup() {
        const processor = new ToolSearchProcessor({
          tools: mode === 'static' ? tools : {},
          includeResolvedTools: mode === 'resolved',
          search: { topK: STEP_TOP_K },
        });
        return mastraStep(processor as unknown as MastraLikeProcessor, tools, mode);
      },
    };
  },
};

function aiTools(data: readonly DataTool[]): Record<string, Tool> {
  const record: Record<string, Tool> = {};
  for (const tool of data) {
    record[tool.id] = aiTool({
      description: tool.description,
      inputSchema: jsonSchema((tool.inputSchema ?? { type: 'object' }) as JsonSchemaInput),
      execute: async () => ({}),
    });
  }
  return record;
}

const aiSdk: StepAdapter = {
  key: 'ai-sdk',
  label: 'tool-search-ai-sdk prepareStep',
  prepare(data, mode) {
    const tools = aiTools(data);
    return {
      async setup() {
        // 'tools', as Mastra's processor works: each step reads the thread's loads.
        const toolSearch = createToolSearch({
          tools: mode === 'static' ? tools : {},
          search: { topK: STEP_TOP_K },
          expose: 'tools',
        });
        const messages = [{ role: 'user' as const, content: 'find a tool' }];
        let stepNumber = 0;
        return {
          next(query) {
            const resolved = mode === 'resolved' ? { ...tools } : undefined;
            return async () => {
              const request = resolved ? toolSearch.forRequest(resolved) : toolSearch;
              await request.prepareStep({ messages, steps: [], stepNumber: stepNumber++ });
              const search = (
                resolved
                  ? (request as ReturnType<typeof toolSearch.forRequest>).metaTools
                  : request.tools
              ).search_tools.execute;
              if (search === undefined) throw new Error('no search_tools');
              // What the AI SDK passes a tool's execute (ai 7 adds the tool's `context`).
              const callOptions = { toolCallId: 'call', messages, context: undefined };
              checkResults(await search({ query }, callOptions as never));
            };
          },
        };
      },
    };
  },
};

type LangChainTool = ReturnType<typeof langchainTool>;

function langchainTools(data: readonly DataTool[]): LangChainTool[] {
  return data.map((tool) =>
    langchainTool(async () => '', {
      name: tool.id,
      description: tool.description,
      schema: (tool.inputSchema ?? { type: 'object', properties: {} }) as never,
    }),
  );
}

/** The parts of `createMiddleware`'s result this drives. */
interface MiddlewareLike {
  tools?: unknown[];
  wrapModelCall?: (request: never, handler: (request: unknown) => unknown) => Promise<unknown>;
}

const langchain: StepAdapter = {
  key: 'langchain',
  label: 'tool-search-langchain middleware',
  prepare(data, mode) {
    const tools = langchainTools(data);
    return {
      async setup() {
        // The request's tools: the same objects each step, in an array of the step's own.
        let resolved: LangChainTool[] = [];
        const middleware = toolSearchMiddleware({
          tools: mode === 'static' ? tools : [],
          search: { topK: STEP_TOP_K },
          expose: 'tools',
          ...(mode === 'resolved' && { resolveTools: () => resolved }),
        }) as unknown as MiddlewareLike;
        // createAgent hands every model call the same array of its registered tools.
        const registered = [...(middleware.tools ?? [])] as {
          name: string;
          invoke: (input: unknown, config: unknown) => Promise<unknown>;
        }[];
        const search = registered.find((candidate) => candidate.name === 'search_tools');
        if (search === undefined) throw new Error('no search_tools');
        const messages = [new HumanMessage('find a tool')];
        const runtime = { configurable: { thread_id: 'bench-thread' }, context: {} };
        const systemMessage = new SystemMessage('You are a helpful assistant.');
        const handler = async () => new AIMessage('');
        let call = 0;
        return {
          next(query) {
            if (mode === 'resolved') resolved = [...tools];
            return async () => {
              await middleware.wrapModelCall!(
                {
                  messages,
                  tools: registered,
                  systemMessage,
                  state: { messages },
                  runtime,
                } as never,
                handler,
              );
              // ToolNode invokes a tool with the tool call and the graph's config and state.
              const message = (await search.invoke(
                { id: `call-${call++}`, name: 'search_tools', args: { query }, type: 'tool_call' },
                { ...runtime, state: { messages } },
              )) as { content: string };
              checkResults(JSON.parse(message.content));
            };
          },
        };
      },
    };
  },
};

/**
 * The MCP gateway's step, as an MCP client makes it before each model call: `tools/list`, then one
 * `search_tools` call, over the SDK's in-memory transport (JSON-RPC and validation included, no
 * socket). The catalog is an upstream's tool list served from a warm manifest cache, so no
 * upstream process runs; `setup` is the gateway reading and indexing it.
 */
const mcpGateway: StepAdapter = {
  key: 'mcp-gateway',
  label: 'tool-search-mcp gateway',
  modes: {
    only: ['static'],
    reason: "n/a: its catalog is its upstreams' tools, indexed when they change",
  },
  prepare(data, mode) {
    if (mode !== 'static') throw new Error('the gateway has no request-resolved tools');
    return {
      async setup() {
        const { client, dir } = await startInProcessGateway(data);
        // The worker ends with process.exit: the gateway goes with it, its manifest folder here.
        process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
        return {
          next(query) {
            return async () => {
              await client.request({ method: 'tools/list', params: {} });
              const result = (await client.request({
                method: 'tools/call',
                params: { name: 'search_tools', arguments: { query } },
              })) as { structuredContent?: unknown };
              checkResults(result.structuredContent);
            };
          },
        };
      },
    };
  },
};

/** Searches run and searches that found something: the worker refuses a run that found nothing. */
export const searchCounts = { searches: 0, found: 0 };

/** A search must answer with results; an empty list counts as found nothing. */
function checkResults(output: unknown): void {
  const results = (output as { results?: unknown[] } | undefined)?.results;
  if (!Array.isArray(results)) throw new Error(`search_tools failed: ${JSON.stringify(output)}`);
  searchCounts.searches++;
  if (results.length > 0) searchCounts.found++;
}

/** Every adapter the step benchmark drives, Mastra's built-in first. */
export const STEP_ADAPTERS: readonly StepAdapter[] = [
  mastraBuiltin,
  mastraOurs,
  aiSdk,
  langchain,
  mcpGateway,
];

/** An adapter by key. */
export function stepAdapterByKey(key: string): StepAdapter | undefined {
  return STEP_ADAPTERS.find((adapter) => adapter.key === key);
}
