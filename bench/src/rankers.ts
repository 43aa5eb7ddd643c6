/**
 * The three rankers the benchmarks compare, each behind the same two-stage interface: `prepare`
 * turns data-file tools into what the library takes (untimed: an application has those objects
 * anyway), `build` makes the searchable index (timed), `search` ranks one query (timed).
 */
import { MessageList } from '@mastra/core/agent/message-list';
import type { ProcessInputStepArgs } from '@mastra/core/processors';
import { ToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool, noopObserve } from '@mastra/core/tools';
import MiniSearch from 'minisearch';
import type { ToolDescriptor, ToolIndexOptions } from 'tool-search-core';
import * as core from 'tool-search-core';
import { ToolIndex } from 'tool-search-core';
import type { DataTool } from './data';

/** How many results every ranker returns: the deepest cut the quality metrics look at. */
export const TOP_K = 10;

/** A built index: ids best first, at most `TOP_K` of them. */
export interface Searcher {
  search(query: string): Promise<string[]>;
}

/** Library inputs made from the data, ready to be indexed. */
export interface Prepared {
  build(): Promise<Searcher>;
}

/** A ranker under test. */
export interface Ranker {
  /** Short name for command-line flags and worker processes. */
  key: string;
  /** Row label in the tables. */
  label: string;
  prepare(tools: readonly DataTool[]): Prepared;
}

/**
 * The label of `ToolIndex` with default options, naming the default ID-match boosts when the
 * package exports them (`DEFAULT_EXACT_ID_BOOST`, `DEFAULT_WORD_ID_BOOST`; read loosely, as they
 * are not part of the API contract).
 */
function defaultToolIndexLabel(): string {
  const exports = core as Record<string, unknown>;
  const exact = exports.DEFAULT_EXACT_ID_BOOST;
  const word = exports.DEFAULT_WORD_ID_BOOST;
  return typeof exact === 'number' && typeof word === 'number'
    ? `ToolIndex (defaults: idBoost exact ${exact} / word ${word})`
    : 'ToolIndex (defaults)';
}

/** `tool-search-core`'s `ToolIndex`, given id, description and input schema of every tool. */
export function toolIndexRanker(
  options?: ToolIndexOptions,
  label = defaultToolIndexLabel(),
): Ranker {
  return {
    key: 'ours',
    label,
    prepare(tools) {
      const descriptors: ToolDescriptor[] = tools.map((tool) =>
        tool.inputSchema === undefined
          ? { id: tool.id, description: tool.description }
          : { id: tool.id, description: tool.description, inputSchema: tool.inputSchema },
      );
      return {
        async build() {
          const index =
            options === undefined
              ? new ToolIndex(descriptors)
              : new ToolIndex(descriptors, options);
          return {
            async search(query) {
              return index.search(query, { topK: TOP_K }).map((hit) => hit.id);
            },
          };
        },
      };
    },
  };
}

/** What `createTool` takes as `inputSchema`: Zod, Standard Schema, AI SDK schema or JSON Schema. */
type MastraInputSchema = NonNullable<Parameters<typeof createTool>[0]['inputSchema']>;

/** What Mastra's `search_tools` returns. */
interface MastraSearchOutput {
  results: { name: string; description: string; score: number }[];
  message: string;
}

/**
 * The smallest `processInputStep` arguments a caller outside an agent can give. The processor
 * reads `messageList` (it adds its system instructions there), `tools`, `messages` (context
 * storage only) and `requestContext` (the thread id); it never reads `model`, which an agent
 * fills with the resolved language model, so none is made here. `abort` is the agent's tripwire.
 */
export function minimalStepArgs(requestContext: RequestContext): ProcessInputStepArgs {
  return {
    messages: [],
    messageList: new MessageList(),
    systemMessages: [],
    state: {},
    stepNumber: 0,
    steps: [],
    retryCount: 0,
    tools: {},
    requestContext,
    model: undefined as unknown as ProcessInputStepArgs['model'],
    abort: (reason?: string): never => {
      throw new Error(`processor aborted: ${reason ?? 'no reason'}`);
    },
  };
}

/**
 * Mastra's `ToolSearchProcessor` through its public API: real `createTool` tools (with the data's
 * JSON Schema as `inputSchema`, which `createTool` accepts as is), the processor built with
 * `search: { topK: 10, minScore: -Infinity }` (so its score cut-off drops nothing), one
 * `processInputStep` to get the injected `search_tools`, and that tool's `execute({ query })`.
 * Build time is the constructor (which indexes the catalog) plus that first `processInputStep`.
 */
export function mastraRanker(label = 'Mastra ToolSearchProcessor'): Ranker {
  return {
    key: 'mastra',
    label,
    prepare(tools) {
      const mastraTools: ConstructorParameters<typeof ToolSearchProcessor>[0]['tools'] = {};
      for (const tool of tools) {
        mastraTools[tool.id] = createTool({
          id: tool.id,
          description: tool.description,
          ...(tool.inputSchema === undefined
            ? {}
            : { inputSchema: tool.inputSchema as MastraInputSchema }),
          execute: async () => ({}),
        });
      }
      return {
        async build() {
          const processor = new ToolSearchProcessor({
            tools: mastraTools,
            search: { topK: TOP_K, minScore: Number.NEGATIVE_INFINITY },
          });
          const requestContext = new RequestContext();
          const step = await processor.processInputStep(minimalStepArgs(requestContext));
          const searchTools = step.tools.search_tools;
          if (searchTools.execute === undefined) throw new Error('search_tools has no execute');
          const execute = searchTools.execute;
          const context = { requestContext, observe: noopObserve };
          return {
            async search(query) {
              const output = (await execute({ query }, context)) as MastraSearchOutput | undefined;
              if (!output || !Array.isArray(output.results)) {
                throw new Error(`search_tools failed: ${JSON.stringify(output)}`);
              }
              return output.results.map((result) => result.name);
            },
          };
        },
      };
    },
  };
}

/** The MiniSearch configuration: defaults except the id field searched and boosted. */
export const MINISEARCH_SEARCH_OPTIONS = { boost: { id: 2 }, prefix: false, fuzzy: false } as const;

/**
 * The words of a JSON Schema a generic engine can be handed: property names and `description`
 * strings at every depth, space-separated. Used by the "+ schema text" MiniSearch row only.
 */
export function schemaText(schema: unknown): string {
  const words: string[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') words.push(value);
      if (key === 'properties' && value !== null && typeof value === 'object') {
        words.push(...Object.keys(value));
      }
      visit(value);
    }
  };
  visit(schema);
  return words.join(' ');
}

/**
 * MiniSearch over id (boost 2) and description with its default tokenizer (which splits on
 * Unicode spaces and punctuation, so `get_weather.v2-beta` gives `get`, `weather`, `v2`, `beta`,
 * but does not split camelCase), no stemming or stop words, exact terms only (no prefix or fuzzy
 * matching), OR of the query terms. With `withSchema`, a third field holds `schemaText` of the
 * input schema (weight 1), which is what `ToolIndex` also gets to see.
 */
export function miniSearchRanker(withSchema = false): Ranker {
  return {
    key: withSchema ? 'minisearch-schema' : 'minisearch',
    label: withSchema ? 'MiniSearch (id boosted, + schema text)' : 'MiniSearch (id boosted)',
    prepare(tools) {
      const documents = tools.map((tool) => ({
        id: tool.id,
        description: tool.description,
        schema: withSchema ? schemaText(tool.inputSchema) : '',
      }));
      return {
        async build() {
          const index = new MiniSearch<{ id: string; description: string; schema: string }>({
            fields: withSchema ? ['id', 'description', 'schema'] : ['id', 'description'],
            searchOptions: { ...MINISEARCH_SEARCH_OPTIONS },
          });
          index.addAll(documents);
          return {
            async search(query) {
              return index
                .search(query)
                .slice(0, TOP_K)
                .map((result) => String(result.id));
            },
          };
        },
      };
    },
  };
}

/** The three rankers with their default settings. */
export function defaultRankers(): Ranker[] {
  return [toolIndexRanker(), mastraRanker(), miniSearchRanker()];
}

/** Every ranker a worker process can be asked for, by key. */
export function rankerByKey(key: string): Ranker | undefined {
  return [...defaultRankers(), miniSearchRanker(true)].find((ranker) => ranker.key === key);
}

/** `ToolIndex` with the given ID-match boosts, for the `--ablation` rows. */
export function boostAblationRanker(exact: number, word: number): Ranker {
  return toolIndexRanker(
    { idBoost: { exact, word } },
    `ToolIndex idBoost exact ${exact} / word ${word}`,
  );
}
