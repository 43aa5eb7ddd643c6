import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import type {
  LoadedToolsStore,
  ToolDescriptor,
  ToolSearchEngineOptions,
  ToolSearchMode,
} from 'tool-search-core';

/**
 * A LangChain tool as the catalog takes it: `tool(...)` with a zod or JSON schema,
 * `DynamicStructuredTool`, or an MCP tool from `@langchain/mcp-adapters`. Structural, so tools
 * built against any compatible `@langchain/core` fit.
 */
export interface LangChainTool {
  name: string;
  description: string;
  /** Zod (v3 or v4) or JSON schema. */
  schema?: unknown;
  returnDirect?: boolean | undefined;
  invoke(input: never, config?: never): Promise<unknown>;
}

/**
 * What a filter sees as `requestContext`: the LangGraph runtime of the call (createAgent's
 * `Runtime`, or a tool's `ToolRuntime`), so `context` and `configurable` are both at hand.
 * @typeParam TContext - the agent's context type (what createAgent's `contextSchema` describes)
 */
export interface ToolSearchRuntime<TContext = unknown> {
  configurable?: { thread_id?: unknown; [key: string]: unknown } | undefined;
  /** The agent's `context` (createAgent's `contextSchema`), e.g. the caller's id or plan. */
  context?: TContext | undefined;
}

/**
 * Options of {@link toolSearchMiddleware} and {@link createToolSearchSelector}: the core's, for LangChain tools.
 * @typeParam TContext - the agent's context type, as `filter` reads it from `requestContext.context`
 */
export interface ToolSearchOptions<TContext = unknown>
  extends Omit<
    ToolSearchEngineOptions<LangChainTool, ToolSearchRuntime<TContext>>,
    'tools' | 'describe' | 'storage' | 'runTool'
  > {
  /** The searchable catalog: `tool(...)` (zod or JSON schema), `DynamicStructuredTool` or MCP tools. */
  tools: readonly LangChainTool[];
  /**
   * Describes a tool for the index; its `id` must stay the tool's name.
   * @default describeTool (name, description, input schema, `metadata.keywords`)
   */
  describe?: (tool: LangChainTool) => ToolDescriptor;
  /**
   * Where loaded tools live. `'context'` derives them from the agent's messages, so any
   * checkpointer keeps them and a restart loses nothing; `'in-memory'` keeps them per `thread_id`
   * in this process; or pass a store of yours (Redis...).
   * @default 'context'
   */
  storage?: 'context' | 'in-memory' | LoadedToolsStore;
  /**
   * How loaded tools reach the model. `'tools'`: each loaded tool is bound to the model from the
   * next call on, which changes the start of the prompt, so the provider's prompt cache is
   * written anew after every load. `'proxy'`: the bound tools never change (the meta-tools,
   * `call_tool` among them, plus pinned tools); `load_tool` answers with the loaded tools'
   * definitions and the model runs them with `call_tool({ name, arguments })`, which checks the
   * arguments against the tool's schema and invokes the tool with the run's config (its
   * callbacks fire, its `ToolMessage` and artifact come back). The default, since it is what
   * keeps a long conversation cheap.
   * @default 'proxy'
   */
  expose?: 'tools' | 'proxy';
  /**
   * Tool search, or every tool given directly. `'auto'`: while the tools a call may use (those the
   * filter allows) weigh less than the core's `DEFAULT_TOOL_SEARCH_THRESHOLD` (3,000 estimated
   * tokens, where the cost benchmark finds searching starts to cost less than sending them), the
   * model is given every catalog tool and no meta-tools, the same set at every call; above it, tool
   * search. `true`: always tool search; `false`: never; `{ threshold }`: your own number of tokens.
   * @default 'auto'
   */
  toolSearch?: ToolSearchMode;
  /**
   * Semantic search with a LangChain `Embeddings` (`OpenAIEmbeddings`, `OllamaEmbeddings`...):
   * `search_tools` then fuses BM25F's ranking with the embeddings' (see `fusion`). Tool texts go
   * through `embedDocuments` once each, a search's query through `embedQuery`; when it fails,
   * search answers with BM25F alone and `onError` says why. Or pass any function as `embed`.
   */
  embeddings?: EmbeddingsInterface;
  /**
   * Tools resolved per request (MCP tools with the caller's credentials): searchable for that
   * request alone, withheld until loaded, and shadowing a catalog tool of the same name. Called
   * with the run's runtime at each model call and tool call, so return the same tool objects
   * while they have not changed: a tool object seen before is not described or indexed again.
   * Under `toolSearchMiddleware` the agent runs a loaded one through the middleware, since
   * `createAgent` never registered it.
   */
  resolveTools?: (
    runtime: ToolSearchRuntime | undefined,
  ) => readonly LangChainTool[] | Promise<readonly LangChainTool[]>;
}
