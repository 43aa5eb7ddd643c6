import type { EmbedFunction, FusionSettings } from '../embedding/embed-function';
import type { FilterPhase } from '../meta-tools/filter-phase';
import type {
  ExposeMode,
  MetaTool,
  ToolRun,
  ToolSearchEvents,
} from '../meta-tools/meta-tool-types';
import type { ToolDescriptor } from '../search/tool-descriptor';
import type { ToolIndexOptions } from '../search/tool-index-options';
import type { ToolResultRecord } from '../state/context-state';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import type { DeferredToolsOptions } from './deferred-tools';
import type { ResolvedTools } from './request-catalogs';

export type { FilterPhase } from '../meta-tools/filter-phase';
export {
  CALL_TOOL_NAME,
  META_TOOL_NAMES,
  RESERVED_TOOL_NAMES,
} from '../meta-tools/meta-tool-names';
export type {
  DenialReason,
  ExposeMode,
  MetaTool,
  ToolDefinition,
  ToolRun,
  ToolSearchEvents,
} from '../meta-tools/meta-tool-types';
export type { ToolResultRecord } from '../state/context-state';

/**
 * The weight, in estimated tokens, below which `toolSearch: 'auto'` gives the model every tool
 * directly: where tool search starts to cost less than sending every tool in the cost benchmark's
 * conversations of real size (bench/README.md, "The break-even"). The break-even of its
 * dev-bfcl scenarios with tool uses runs from about 2,000 (a short task) to 10,700 tokens (a
 * 300-step session); 4,000 is their median under Anthropic's and OpenAI's prices (3,800 and 4,000).
 */
export const DEFAULT_TOOL_SEARCH_THRESHOLD = 4_000;

/** What a filter is asked about. */
export interface ToolFilterArgs<TTool, TContext> {
  /**
   * The tool's id, as search shows it and the model calls it, also when the model loaded the tool
   * by the key it is listed under.
   */
  toolName: string;
  tool: TTool;
  /** The request's context (a Mastra RequestContext, the AI SDK's context, a LangGraph config...). */
  requestContext: TContext | undefined;
  phase: FilterPhase;
}

/**
 * Request-aware policy: `false`, a throw, a rejection or no answer within `filterTimeout` all
 * mean "not allowed".
 */
export type ToolFilter<TTool, TContext> = (
  args: ToolFilterArgs<TTool, TContext>,
) => boolean | Promise<boolean>;

/** Options of the search meta-tool. */
export interface SearchSettings {
  /**
   * Results per search.
   * @default 5
   */
  topK?: number;
  /**
   * Results scoring at or below this are dropped. Scores are raw BM25F plus ID boosts.
   * @default 0
   */
  minScore?: number;
  /**
   * `search_tools` also loads what it returns, and `load_tool` is not offered.
   * @default false
   */
  autoLoad?: boolean;
  /**
   * Under `expose: 'proxy'`: how many of a search's best results (those the `load` filter allows)
   * come with their definitions (`tools` in the answer), so that the model can run one with
   * `call_tool` in its very next request, without a `load_tool` in between. `0` answers names
   * and descriptions only. Each definition is read again by every later request of the
   * conversation, at the cached price: see the cost benchmark for why 3 is the default.
   * @default 3
   */
  definitions?: number;
}

/**
 * Whether the model searches the catalog or is given every tool directly. `true`: tool search
 * (the meta-tools, plus pinned and loaded tools). `false`: every tool the filter allows, given
 * directly, and no meta-tools. `'auto'`: every tool directly while the tools the request may use
 * (those the filter allows in every phase) weigh less than {@link DEFAULT_TOOL_SEARCH_THRESHOLD}
 * tokens, tool search from there on; `{ threshold }`: the same with your own number of tokens.
 * Below the threshold, sending every tool costs less over a conversation than searching for
 * them (each search is one more request that reads the whole conversation again); the tools
 * given directly are the same at every step while the filter's answers stay the same, so the
 * provider's prompt cache holds. Weights are estimated (`estimateTokens`: within about a tenth
 * of the tokenizers of today's models). An engine with `deferredTools` always searches under
 * `'auto'`: its tools are resolved only when loaded.
 */
export type ToolSearchMode = boolean | 'auto' | { threshold: number };

/**
 * Options of {@link createToolSearchEngine}.
 * @typeParam TTool - your tool type, whatever shape your agent loop uses
 * @typeParam TContext - the request context a `filter` reads (`unknown` unless you name it)
 */
export interface ToolSearchEngineOptions<TTool, TContext = unknown>
  extends ToolSearchEvents,
    DeferredToolsOptions<TTool, TContext> {
  /** The searchable catalog, keyed as the framework keys it. */
  tools: Readonly<Record<string, TTool>>;
  /**
   * Describes a framework tool for the index; its `id` is the name the model sees and calls. When
   * it differs from the tool's key, `load_tool` accepts the key too.
   */
  describe: (tool: TTool, key: string) => ToolDescriptor;
  search?: SearchSettings;
  /**
   * Where loaded tools live: per thread in process memory, derived from the conversation's
   * messages, or a store of yours (a `LoadedToolsStore`, such as `createRedisStore()` from `tool-search-redis`, shared by server instances).
   * @default 'in-memory'
   */
  storage?: 'in-memory' | 'context' | LoadedToolsStore;
  /**
   * Idle time before an in-memory thread is forgotten, in ms; `0` disables expiry.
   * @default 3_600_000
   */
  ttl?: number;
  /**
   * Threads the in-memory store keeps at most.
   * @default 10_000
   */
  maxThreads?: number;
  filter?: ToolFilter<TTool, TContext>;
  /**
   * A filter that has not answered after this many ms counts as "not allowed".
   * @default 3_000
   */
  filterTimeout?: number;
  /** Tools (by id or key) that are always active, without search or load. */
  alwaysLoaded?: readonly string[];
  /**
   * Tool search, or every tool given directly: see {@link ToolSearchMode}. The adapters default
   * to `'auto'`; the engine to `true`, which is what it did before the option existed.
   * @default true
   */
  toolSearch?: ToolSearchMode;
  /**
   * How loaded tools reach the model. `'tools'`: a loaded tool joins the tools the model is
   * given (`session.activeTools()`). `'proxy'`: the tools the model is given never change in a
   * conversation (the meta-tools, `call_tool` among them, plus pinned tools), so the provider's
   * prompt cache, which is keyed by the prompt's prefix and starts with the tools, survives every
   * load; `load_tool` answers with the loaded tools' definitions, which enter the conversation at
   * its end, and the model runs a loaded tool with `call_tool({ name, arguments })`. Needs
   * `runTool`.
   * @default 'tools'
   */
  expose?: ExposeMode;
  /**
   * Runs a catalog tool for `call_tool` (`expose: 'proxy'`), after the session has checked that
   * it is loaded and allowed and that its arguments match its input schema. What it returns is
   * `call_tool`'s result; what it throws is thrown to the framework, as the tool's own error.
   */
  runTool?: (run: ToolRun<TTool, TContext>) => unknown;
  /** Loaded tools kept per thread at most; the least recently used one is evicted. */
  maxLoadedTools?: number;
  /**
   * Offer `unload_tool`, so the model can drop tools it no longer needs.
   * @default false
   */
  unloadTool?: boolean;
  /** Ranking options for the index. */
  index?: ToolIndexOptions;
  /**
   * Semantic search: turns texts into vectors (any embedding model). With it, `search_tools`
   * fuses BM25F's ranking with cosine similarity to the query by reciprocal-rank fusion, and
   * results are scored in (0, 1] (see `fusion`). Each distinct tool text is embedded once, and
   * each search's query once; an embedder that fails, times out or returns malformed vectors
   * never fails a search: it answers with BM25F alone and `onError` says why.
   */
  embed?: EmbedFunction;
  /** How `embed` is called and how its ranking is fused with BM25F's. */
  fusion?: FusionSettings;
  /**
   * A snapshot written at deploy time, say: `engine.toSnapshot()` (the index and, with `embed`,
   * the tool vectors) or `engine.index.toSnapshot()` (the index alone). The engine restores the
   * index instead of indexing every tool, so a large catalog starts in a fraction of the time,
   * and the vectors instead of embedding the catalog again. It must have been built with the same
   * `index` options (otherwise the engine throws a `SnapshotError`, as it does for damaged bytes
   * or another format version). The snapshot keeps a content hash of each tool's text (id,
   * description, input schema text, keywords): when the catalog has tools the snapshot lacks,
   * lacks some of its tools, or changed a tool's text under the same id, the engine indexes
   * those tools alone again (search always ranks the text the model is shown) and reports how
   * many through `onError` (operation `'snapshot'`, a `SnapshotDriftError`); the vectors of
   * tools whose text did not change are still used. Vectors written with another
   * `fusion.model` are not restored (reported the same way); without `embed` they are ignored.
   * The index bytes are read in place: do not change them afterwards.
   */
  snapshot?: Uint8Array;
}

/** What a session is created from: one request (one agent call) of one caller. */
export interface SessionInit<TTool, TContext> {
  /** The conversation thread; without one the session shares no state with other requests. */
  threadId?: string | undefined;
  requestContext?: TContext | undefined;
  /**
   * Tools resolved for this request alone (MCP tools with the caller's credentials): a record,
   * or what `engine.resolveTools(record)` made of one, to skip the pass over the record at each
   * step of the same request.
   */
  resolvedTools?: Readonly<Record<string, TTool>> | ResolvedTools<TTool> | undefined;
  /** The conversation's tool results so far, for `storage: 'context'`. */
  toolResults?: Iterable<ToolResultRecord> | undefined;
  /**
   * How this request's loaded tools reach the model, when it differs from the engine's `expose`
   * (one engine serving clients of both kinds, as the MCP gateway does). `'proxy'` needs the
   * engine's `runTool`.
   */
  expose?: ExposeMode | undefined;
  /**
   * Meta-tool results this request produced in earlier steps that the adapter kept itself (not
   * read from messages, which a caller can forge): their loads count like `toolResults`, but
   * passed the `load` filter when they were made, so it is not asked again.
   */
  requestResults?: Iterable<ToolResultRecord> | undefined;
}

/** A tool to offer the model on the next step. */
export interface ActiveTool<TTool> {
  id: string;
  tool: TTool;
  /** Pinned by `alwaysLoaded` rather than loaded. */
  pinned: boolean;
  /**
   * Resolved from `deferredTools` for this session's request: run it only in that request (the
   * tool may act with its caller's credentials).
   */
  deferred?: true;
}

/** What to give the model on one step (`session.offer()`). */
export interface ToolOffer<TTool> {
  /** Whether the request searches the catalog; `false` when every tool is given directly. */
  search: boolean;
  /** The meta-tools to offer; none when every tool is given directly. */
  metaTools: MetaTool[];
  /** The system instruction about the meta-tools; empty when there are none. */
  instructions: string;
  /** The tools besides the meta-tools. */
  tools: ActiveTool<TTool>[];
}
