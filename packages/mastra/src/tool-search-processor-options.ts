import type { RequestContext } from '@mastra/core/request-context';
import type { Tool } from '@mastra/core/tools';
import type { MastraEmbeddingOptions } from '@mastra/core/vector';
import type {
  DeferredTool as CoreDeferredTool,
  EmbedFunction,
  FilterPhase,
  FusionSettings,
  LoadedToolsStore,
  SearchSettings,
  ToolIndexOptions,
  ToolSearchEvents,
  ToolSearchMode,
} from 'tool-search-core';
import type { MastraEmbedder } from './embed-with-embedder';

/** Any Mastra tool, whatever its input and output types. */
// biome-ignore lint/suspicious/noExplicitAny: Mastra's own option type takes `Tool<any, any>`; narrower types reject real tools.
export type AnyMastraTool = Tool<any, any>;

/** The phase a filter is asked in, as Mastra names them. */
export type ToolSearchFilterPhase = FilterPhase;

/** What the `filter` option is asked about: the same fields as Mastra's. */
export interface ToolSearchFilterArgs {
  /**
   * The tool's id, as `search_tools` shows it and the model calls it, also when the model loaded
   * the tool by the key it is listed under.
   */
  toolName: string;
  tool: AnyMastraTool;
  requestContext?: RequestContext | undefined;
  phase: ToolSearchFilterPhase;
}

/**
 * A tool known by its metadata until the model loads it (Mastra's `DeferredTool`): search ranks
 * `id`, `description` (and `inputSchema` or `keywords` when given), and `resolve` builds the real
 * tool, for the loading request alone, when it is loaded and at each later step that offers it.
 */
export type DeferredTool = CoreDeferredTool<AnyMastraTool>;

/** What the `deferredFilter` option is asked about: a deferred tool's metadata, never the real tool. */
export interface DeferredToolFilterArgs {
  toolName: string;
  tool: DeferredTool;
  requestContext?: RequestContext | undefined;
  phase: ToolSearchFilterPhase;
}

/**
 * A classifier as `preselect` uses it: Mastra's `Classifier` (from `@mastra/core/classifier`),
 * constructed with `questions`.
 */
export interface PreselectClassifier {
  readonly id?: string;
  readonly questions?: Readonly<
    Record<string, { readonly type: string; readonly criteria?: unknown }>
  >;
  evaluate(options: {
    state: string;
    providerOptions?: Record<string, Record<string, unknown>>;
  }): Promise<{ answers: Readonly<Record<string, unknown>> }>;
}

/**
 * Preselect with a classifier, as Mastra does: one choice question about the user's message, and
 * the tools to load for each choice. Fails open: a classifier that throws, or answers below
 * `minProbability`, loads nothing and the agent searches as usual.
 */
export interface ClassifierPreselect {
  /** The classifier, or the id of one registered with `new Mastra({ classifiers })`. */
  classifier: PreselectClassifier | string;
  /** The classifier's choice question to ask. */
  question: string;
  /** Tool ids (or keys) to load per choice; every choice of the question, `[]` for none. */
  tools: Readonly<Record<string, readonly string[]>>;
  /**
   * Below this probability of its choice the classifier is ignored (a choice without a
   * distribution is used as it is).
   * @default 0.6
   */
  minProbability?: number;
  /** Provider options for the classifier's call. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/**
 * Preselect with no model call: the catalog is ranked against the user's message and the tools
 * scoring above `minScore` are loaded. Pick `minScore` from `tool-search eval` figures (the README
 * says how).
 */
export interface IndexPreselect {
  /** Tools must score above this (scores as `search_tools` shows them, BM25F plus id boosts). */
  minScore: number;
  /**
   * Tools loaded per message at most.
   * @default search.topK (5)
   */
  maxTools?: number;
}

/** Tools loaded from the user's message before the model's first step. */
export type ToolSearchPreselect = ClassifierPreselect | IndexPreselect;

/**
 * Options of {@link ToolSearchProcessor}: every option of Mastra's own processor, unchanged, plus
 * pins, a loaded-tool budget, `unload_tool`, custom stores and telemetry events.
 */
export interface ToolSearchProcessorOptions extends ToolSearchEvents {
  /**
   * The searchable catalog. A tool is shown and offered under its `id` (its key when it has none);
   * `load_tool` also accepts the key it is listed under. Reserved names (`search_tools`,
   * `load_tool`, `unload_tool`), duplicate ids and a key that is another tool's id throw.
   */
  tools: Record<string, AnyMastraTool>;
  /**
   * Also index the tools the agent resolved for this request, and withhold them until loaded.
   * The meta-tools are never withheld.
   * @default false
   */
  includeResolvedTools?: boolean;
  /**
   * List every allowed tool (`search` phase) in a system message, so the model can load without
   * searching. Costs prompt tokens in proportion to the catalog.
   * @default false
   */
  injectCatalog?: boolean;
  /** `topK` (default 5), `minScore` (default 0; our scores have their own scale) and `autoLoad`. */
  search?: SearchSettings;
  /**
   * Where loaded tools live: per thread in memory, derived from the conversation's messages, or a
   * store of yours (a `LoadedToolsStore` from `tool-search-core`, shared by server instances).
   * @default 'in-memory'
   */
  storage?: 'in-memory' | 'context' | LoadedToolsStore;
  /**
   * Idle time in ms before an in-memory thread is forgotten; `0` disables expiry.
   * @default 3_600_000
   */
  ttl?: number;
  /**
   * Threads the in-memory store keeps at most; the least recently used is dropped.
   * @default 10_000
   */
  maxThreads?: number;
  /**
   * Request-aware policy; a throw, a rejection or a timeout means "not allowed". Deferred tools
   * reach it only once resolved (`load` and `active` phases); their metadata goes to
   * `deferredFilter`.
   */
  filter?: (args: ToolSearchFilterArgs) => boolean | Promise<boolean>;
  /**
   * Tool metadata per request whose real tools are built only when loaded (MCP connectors that
   * need the caller's credentials): listed only when a search, a listing or a loaded tool needs
   * them, resolved once per step for the loading request alone. A resolved tool refuses to run
   * under another request context (`request identity changed`). An id that another tool of the
   * request has, or a meta-tool's name, makes the search or load that meets it throw.
   */
  deferredTools?: (args: {
    requestContext?: RequestContext | undefined;
  }) => Record<string, DeferredTool> | Promise<Record<string, DeferredTool>>;
  /** Policy over deferred tools' metadata, asked before anything is resolved (every phase). */
  deferredFilter?: (args: DeferredToolFilterArgs) => boolean | Promise<boolean>;
  /**
   * Load tools from the user's message before the model's first step, so a simple request needs
   * no search round trip: a classifier's choice (Mastra's contract) or our index's ranking (no
   * model call). Runs once per user message; never loads what the `load` filter denies.
   */
  preselect?: ToolSearchPreselect;
  /**
   * A filter that has not answered after this many ms counts as "not allowed".
   * @default 3_000
   */
  filterTimeout?: number;
  /** Tools (by id or key) offered on every step, without search or load. */
  alwaysLoaded?: readonly string[];
  /** Loaded tools kept per thread at most; the least recently used one is unloaded. */
  maxLoadedTools?: number;
  /**
   * Offer `unload_tool`, so the model can drop tools it no longer needs.
   * @default false
   */
  unloadTool?: boolean;
  /**
   * How loaded tools reach the model. `'tools'` (Mastra's behaviour): each loaded tool joins the
   * step's tools, which changes the start of the prompt, so the provider's prompt cache is
   * written anew after every load. `'proxy'`: the step's tools never change (the meta-tools,
   * `call_tool` among them, the agent's own tools and pinned tools); `load_tool` answers with
   * the loaded tools' definitions and the model runs them with `call_tool({ name, arguments })`,
   * which checks the arguments against the tool's schema and runs its `execute` with the step's
   * execution context.
   * @default 'tools'
   */
  expose?: 'tools' | 'proxy';
  /**
   * Tool search, or every tool given directly. `true` (Mastra's behaviour): always tool search.
   * `'auto'`: while the tools a step may use (those the filter allows) weigh less than the core's
   * `DEFAULT_TOOL_SEARCH_THRESHOLD` (3,000 estimated tokens, where the cost benchmark finds searching
   * starts to cost less than sending them), the step is given every catalog tool and no meta-tools,
   * the same set at every step; above it, tool search. `false`: never; `{ threshold }`: your own
   * number of tokens. With `deferredTools`, `'auto'` always searches.
   * @default true
   */
  toolSearch?: ToolSearchMode;
  /** Ranking options of the index (field weights, BM25 parameters, tokenizer). */
  index?: ToolIndexOptions;
  /**
   * Semantic search, with an embedder as Mastra's memory takes it: an AI SDK embedding model
   * (`openai.embedding('text-embedding-3-small')`) or a model router id
   * (`'openai/text-embedding-3-small'`). `search_tools` then fuses BM25F's ranking with the
   * embeddings' (see `fusion`); each tool text is embedded once, each search's query once, and
   * when the embedder fails search answers with BM25F alone and `onError` says why.
   */
  embedder?: MastraEmbedder;
  /** Headers and provider options for the embedder's calls, as in Mastra's memory options. */
  embedderOptions?: MastraEmbeddingOptions;
  /** Semantic search with any embedding function instead of `embedder`. */
  embed?: EmbedFunction;
  /** Fusion weights, `k`, the embedding timeout and batch size. */
  fusion?: FusionSettings;
  /**
   * What `processor.toSnapshot()` wrote at deploy time (the catalog's index and, with an embedder,
   * the tool vectors), restored instead of indexing and embedding every tool at start-up. Vectors
   * of another model are not restored; an index snapshot alone (`ToolIndex.toSnapshot()` from
   * `tool-search-core`) is accepted too.
   */
  snapshot?: Uint8Array;
}
