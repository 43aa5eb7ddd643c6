/** An upstream MCP server started as a child process and spoken to over stdio. */
export interface StdioUpstreamConfig {
  /** The program to run, e.g. `npx` or `node`. */
  command: string;
  args?: string[];
  /**
   * Set in the child's environment, over what it inherits: the MCP SDK's defaults (HOME, PATH,
   * SHELL, TERM, USER, LOGNAME) and the network and TLS variables (proxies, CA certificates,
   * `npm_config_*`; see `NETWORK_ENV_NAMES`).
   */
  env?: Record<string, string>;
  /**
   * More variables of the gateway's environment the child inherits, by name or `*` glob
   * (`["AWS_*", "NODE_OPTIONS"]`); the rest stay out.
   */
  inheritEnv?: string[];
  /**
   * Variables the child does not inherit, by name or `*` glob, the defaults included
   * (`["HTTPS_PROXY", "npm_config_*"]`); `env` still sets any of them.
   */
  withholdEnv?: string[];
  /** Working directory of the child; relative paths are read from the config file's folder. */
  cwd?: string;
  /** Only upstream tools whose own name matches one of these globs (`*` = any characters) are exposed. */
  allowTools?: string[];
  /** Upstream tools whose own name matches one of these globs are never exposed nor called. */
  denyTools?: string[];
  /** This server's start timeout in ms, instead of the gateway's `--connect-timeout`. */
  connectTimeout?: number;
  /**
   * Honour the server's `_meta["anthropic/alwaysLoad"]: true` on a tool: the gateway pins such a
   * tool (it is listed on every step, without a search). `false` ignores the hint for this server.
   * @default true
   */
  alwaysLoadHint?: boolean;
}

/** An upstream MCP server reached over HTTP. */
export interface HttpUpstreamConfig {
  /** The server's MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string;
  /** Sent with every request, e.g. `{ "Authorization": "Bearer ..." }`. */
  headers?: Record<string, string>;
  /**
   * `'sse'` for a server that only speaks the old HTTP+SSE transport; anything else is Streamable HTTP.
   * @default 'http'
   */
  type?: 'http' | 'streamable-http' | 'sse';
  /** Only upstream tools whose own name matches one of these globs (`*` = any characters) are exposed. */
  allowTools?: string[];
  /** Upstream tools whose own name matches one of these globs are never exposed nor called. */
  denyTools?: string[];
  /** This server's connect timeout in ms, instead of the gateway's `--connect-timeout`. */
  connectTimeout?: number;
  /**
   * Honour the server's `_meta["anthropic/alwaysLoad"]: true` on a tool: the gateway pins such a
   * tool (it is listed on every step, without a search). `false` ignores the hint for this server.
   * @default true
   */
  alwaysLoadHint?: boolean;
}

/** One entry of `mcpServers`. */
export type UpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** How upstream tools reach the client once loaded. */
export type ExposeMode = 'tools' | 'proxy';

/** The `toolSearch` object of the config: the engine's options and the gateway's mode. */
export interface ToolSearchConfig {
  /**
   * Results per search.
   * @default 5
   */
  topK?: number;
  /**
   * Results scoring at or below this are dropped.
   * @default 0
   */
  minScore?: number;
  /**
   * `search_tools` also loads what it finds; `load_tool` is not offered.
   * @default false
   */
  autoLoad?: boolean;
  /** Exposed names (`<server>__<tool>`) that are always listed, without search or load. */
  alwaysLoaded?: string[];
  /** Loaded tools kept per session at most; the least recently used one is unloaded. */
  maxLoadedTools?: number;
  /**
   * Offer `unload_tool`.
   * @default false
   */
  unloadTool?: boolean;
  /**
   * `'proxy'`: `tools/list` never changes, so the client's prompt cache survives every load, and
   * loaded tools are called through the `call_tool` meta-tool; it works with every client,
   * including those that never list tools again (the AI SDK's and LangChain's MCP clients).
   * `'tools'`: loaded tools are added to `tools/list`, for clients that honour
   * `notifications/tools/list_changed`, at the price of a new prompt prefix at each load.
   * @default 'proxy'
   */
  expose?: ExposeMode;
  /**
   * Tool search, or every upstream tool listed directly. `"auto"`: while the tools a session may
   * use weigh less than `threshold` estimated tokens, `tools/list` lists them all and no
   * meta-tools (the same list while the upstreams' tools stay the same); from there on, tool
   * search. `true`: always tool search; `false`: never.
   * @default "auto"
   */
  enabled?: boolean | 'auto';
  /**
   * The weight, in estimated tokens of tool definitions, from which `"auto"` searches.
   * @default 4000 (the core's `DEFAULT_TOOL_SEARCH_THRESHOLD`)
   */
  threshold?: number;
  /**
   * Under `"proxy"`: how many of a search's best results come with their input schemas, so the
   * model can run one with `call_tool` in its next request.
   * @default 3
   */
  definitions?: number;
}

/** How loaded tools reach a client when the config does not say: see {@link ToolSearchConfig.expose}. */
export const DEFAULT_EXPOSE: ExposeMode = 'proxy';

/**
 * The `storage` object of the config: where sessions' loaded tools live. Redis lets several
 * gateway instances (HTTP, behind a load balancer) share them; without `storage` they stay in the
 * gateway's memory.
 */
export interface RedisStorageConfig {
  type: 'redis';
  /** The Redis server, e.g. `redis://127.0.0.1:6379` or `rediss://user:password@host:6380/0`. */
  url: string;
  /**
   * Put before every key, to separate gateways (or environments) sharing one Redis. No `{` or `}`.
   * @default 'tool-search:'
   */
  keyPrefix?: string;
  /**
   * Idle time in ms before Redis forgets a session's loaded tools; `0` never.
   * @default 3_600_000
   */
  ttl?: number;
  /**
   * How long one Redis call may take, in ms, before the gateway answers without it.
   * @default 1_000
   */
  timeout?: number;
}

/** Where loaded tools are kept (only Redis for now; the default is the gateway's memory). */
export type StorageConfig = RedisStorageConfig;

/**
 * The `embeddings` object of the config: an OpenAI-compatible embeddings endpoint (OpenAI, Azure
 * OpenAI, Ollama, LM Studio, vLLM, LiteLLM, text-embeddings-inference...). With it, `search_tools`
 * fuses BM25F's ranking with one by meaning.
 */
export interface EmbeddingsConfig {
  /** The API's base URL, e.g. `https://api.openai.com/v1`; texts are posted to `{url}/embeddings`. */
  url: string;
  /** The embedding model, e.g. `text-embedding-3-small`. */
  model: string;
  /**
   * The environment variable that holds the API key, sent as `Authorization: Bearer <key>`: keeps
   * the secret out of the file.
   */
  apiKeyEnv?: string;
  /** The API key itself, for keys that are not secret (a local server); prefer `apiKeyEnv`. */
  apiKey?: string;
  /** More request headers. */
  headers?: Record<string, string>;
  /** Asks models that support it (OpenAI's text-embedding-3) for shorter vectors. */
  dimensions?: number;
  /**
   * Texts per request at most.
   * @default 32
   */
  batchSize?: number;
  /**
   * How long a search waits for the endpoint, in ms, before answering with BM25F alone.
   * @default 5_000
   */
  timeout?: number;
}

/**
 * The `definitionPins` object of the config. The gateway keeps a hash of every upstream tool's
 * definition the first time it sees it; a tool whose definition later differs is quarantined
 * until `tool-search-mcp approve` accepts it.
 */
export interface DefinitionPinsConfig {
  /**
   * The pin file, instead of the default (`pins.json` in the cache folder; Redis with
   * `storage`). A relative path is read from the config file's folder.
   */
  file?: string;
  /**
   * A tool first seen on a server that already has pinned tools: `'trust'` pins it at once (as
   * every tool of a new server is), `'quarantine'` holds it until approved.
   * @default 'trust'
   */
  newTools?: 'trust' | 'quarantine';
}

/** The `tracing` object of the config (traces are turned on by the standard `OTEL_*` variables). */
export interface TracingConfig {
  /**
   * Put `search_tools` queries and tool-call arguments and results in spans
   * (`tool_search.query`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). They are
   * the model's and the tools' own text, which may hold anything a user typed.
   * @default false
   */
  recordContent?: boolean;
}

/** The gateway's configuration file: the `mcpServers` object MCP clients already use, plus `toolSearch`. */
export interface GatewayConfig {
  /** The upstream servers by name; the name becomes the prefix of their exposed tool names. */
  mcpServers: Record<string, UpstreamConfig>;
  /** Search options and the expose mode. */
  toolSearch?: ToolSearchConfig;
  /** Where sessions' loaded tools live (default: the gateway's memory). */
  storage?: StorageConfig;
  /** An embeddings endpoint for semantic search (default: none, BM25F alone). */
  embeddings?: EmbeddingsConfig;
  /**
   * Where upstream tool definitions are pinned, and what happens to new tools; `false` pins
   * nothing (no tool is ever quarantined). Default: pinned in the cache folder's `pins.json`, or
   * in Redis with `storage`.
   */
  definitionPins?: DefinitionPinsConfig | false;
  /** What traces carry, when the `OTEL_*` environment variables turn them on. */
  tracing?: TracingConfig;
}

/** Whether an upstream entry is reached over HTTP. */
export function isHttpUpstream(config: UpstreamConfig): config is HttpUpstreamConfig {
  return 'url' in config && typeof config.url === 'string';
}
