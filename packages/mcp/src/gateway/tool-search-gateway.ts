import { randomUUID } from 'node:crypto';
import {
  type CallToolResult,
  ProtocolError,
  Server,
  type ServerContext,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  type ActiveTool,
  createMemoryStore,
  createToolSearchEngine,
  type EmbedFunction,
  type FusionSettings,
  type LoadedToolsStore,
  type MemoryStore,
  type ToolSearchEngine,
  type ToolSearchSession,
  toolSearchInstructions,
  toToolRecord,
} from 'tool-search-core';
import type { ExposeMode, ToolSearchConfig } from '../config/gateway-config';
import { UpstreamError } from '../upstream/upstream-connection';
import type { GatewayTool, UpstreamManager } from '../upstream/upstream-manager';
import { isNestedDeeperThan, MAX_ARGUMENT_DEPTH } from './argument-depth';
import { CALL_TOOL_DEFINITION, CALL_TOOL_NAME, toMcpDefinition } from './gateway-tool-definitions';

/** Options of {@link createToolSearchGateway}. */
export interface ToolSearchGatewayOptions {
  /** The upstream side; the gateway calls its `start()` and answers `tools/list` once it has finished. */
  upstreams: UpstreamManager;
  /** The config's `toolSearch` object: engine options and the expose mode. */
  toolSearch?: ToolSearchConfig | undefined;
  /**
   * Where sessions' loaded tools live, keyed by thread (the MCP session id over HTTP): a shared
   * store (e.g. `createRedisStore` from `tool-search-redis`) lets several gateway instances see
   * the same sessions' loads. The gateway does not close it.
   * @default a memory store without expiry
   */
  storage?: LoadedToolsStore | undefined;
  /**
   * The name and version the gateway gives MCP clients.
   * @default { name: 'tool-search-mcp', version: '0.0.0' }
   */
  serverInfo?: { name: string; version: string };
  /**
   * Receives log lines.
   * @default writes to stderr
   */
  log?: (message: string) => void;
  /**
   * Semantic search: turns texts into vectors (e.g. `createEmbedFromConfig(config.embeddings)`).
   * `search_tools` then fuses BM25F's ranking with one by meaning. The catalog is embedded in the
   * background once the upstreams have started (a failure is logged, never fatal), each new tool
   * text once, each search's query once; a search the endpoint fails answers with BM25F alone.
   */
  embed?: EmbedFunction | undefined;
  /** How `embed` is called and fused (the core's `fusion` option); `model` names the vectors. */
  fusion?: FusionSettings | undefined;
}

/** Options of {@link ToolSearchGateway.createServer}. */
export interface GatewaySessionOptions {
  /**
   * The thread the session's loaded tools are kept under: the MCP session id over HTTP.
   * @default a fresh random id (one connection, one thread)
   */
  threadId?: string;
  /**
   * Whether closing the session clears its thread's loaded tools.
   * @default true when the gateway picks the thread id; false for a `threadId` you give, since a
   * thread you name may be served by other connections too (another one here, or another
   * instance's through a shared store), and one of them closing must not empty it for the rest
   */
  forgetOnClose?: boolean;
}

/** Longest tool name echoed back in an error message. */
const MAX_ECHOED_NAME = 140;

/**
 * One session's last `tools/list` answer and what it was built from. The loaded tools are read
 * from the store on every request (another connection or instance may share the thread); the
 * answer is rebuilt only when they, or the upstream catalog, differ.
 */
interface ListedTools {
  /** The catalog it was built from (a number, so an old catalog is not kept alive by a session). */
  catalog: number;
  /** The listed tools besides the meta-tools, in order: exposed name and upstream tool object. */
  listed: readonly ActiveTool<GatewayTool>[];
  tools: readonly Tool[];
}

/**
 * Tool search in front of MCP servers, as an MCP server: `tools/list` offers the meta-tools, then
 * pinned and loaded tools; `tools/call` runs the meta-tools or forwards to the upstream. Each MCP
 * session is its own thread of the core engine. All search and state logic is the core's.
 */
export class ToolSearchGateway {
  /** The upstream side: connections, manifests, calls. */
  readonly upstreams: UpstreamManager;
  /** How loaded tools reach the client. */
  readonly expose: ExposeMode;
  readonly #toolSearch: ToolSearchConfig;
  readonly #serverInfo: { name: string; version: string };
  readonly #log: (message: string) => void;
  /** Loaded tools per thread, kept across engine rebuilds (an upstream's tools changed). */
  readonly #store: LoadedToolsStore;
  /** The store the gateway made itself, and so disposes of. */
  readonly #ownStore: MemoryStore | undefined;
  /** Open sessions, each with its thread (several sessions may share one thread). */
  readonly #sessions = new Map<Server, string>();
  readonly #ready: Promise<void>;
  readonly #unsubscribe: () => void;
  readonly #embed: EmbedFunction | undefined;
  readonly #fusion: FusionSettings | undefined;
  #engine: ToolSearchEngine<GatewayTool> | undefined;
  /** Counts engine builds: which upstream catalog a cached `tools/list` answer was built from. */
  #catalog = 0;
  /** Set once `ready()` has resolved, so requests after start-up do not wait a turn for it. */
  #started = false;

  constructor(options: ToolSearchGatewayOptions) {
    this.upstreams = options.upstreams;
    this.#toolSearch = options.toolSearch ?? {};
    this.expose = this.#toolSearch.expose ?? 'tools';
    this.#serverInfo = options.serverInfo ?? { name: 'tool-search-mcp', version: '0.0.0' };
    this.#log =
      options.log ?? ((message) => process.stderr.write(`[tool-search-mcp] ${message}\n`));
    this.#ownStore = options.storage ? undefined : createMemoryStore({ ttl: 0 });
    this.#store = options.storage ?? this.#ownStore!;
    this.#embed = options.embed;
    this.#fusion = options.fusion;
    // Empty until the upstreams have started: the catalog is indexed once, when it is known.
    this.#engine = this.#buildEngine([], false);
    this.#ready = this.upstreams.start().then(() => {
      this.#engine = this.#buildEngine(this.upstreams.tools, true);
      this.#warmEmbeddings(this.#engine);
      this.#started = true;
    });
    this.#unsubscribe = this.upstreams.onToolsChanged((tools) => {
      this.#engine = this.#buildEngine(tools, true);
      this.#warmEmbeddings(this.#engine);
      for (const server of this.#sessions.keys()) {
        server.sendToolListChanged().catch(() => undefined);
      }
    });
  }

  /** The core engine over the current upstream tools (rebuilt when an upstream's tools change). */
  get engine(): ToolSearchEngine<GatewayTool> {
    return this.#engine!;
  }

  /** Resolves once the upstreams have started (or failed) and the catalog is built. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Open MCP sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * A new MCP server for one session; connect it to any transport. Its loaded tools are its own.
   * @param options - the session's thread id, and whether closing it clears that thread
   */
  createServer(options: GatewaySessionOptions = {}): Server {
    const threadId = options.threadId ?? randomUUID();
    const forget = options.forgetOnClose ?? options.threadId === undefined;
    const { autoLoad = false, unloadTool = false } = this.#toolSearch;
    const proxyNote =
      this.expose === 'proxy'
        ? ' Call loaded tools through call_tool with their exact name and arguments.'
        : '';
    const server = new Server(this.#serverInfo, {
      capabilities: { tools: { listChanged: true } },
      instructions: toolSearchInstructions({ autoLoad, unloadTool }) + proxyNote,
    });
    let listed: ListedTools | undefined;
    server.setRequestHandler('tools/list', async () => {
      if (!this.#started) await this.#ready;
      this.upstreams.retryMissing();
      listed = await this.#listTools(threadId, listed);
      // A copy: the cached array must not change whatever the transport does with the answer.
      return { tools: [...listed.tools] };
    });
    // The transport's own errors (a line that is not JSON-RPC, a message over the SDK's size
    // limit, which ends a stdio session) would otherwise go unseen: they reach the log.
    // Only the id's start: over HTTP the id is the session's capability, and logs are read by others.
    server.onerror = (error) => this.#log(`session ${threadId.slice(0, 8)}…: ${oneLine(error)}`);
    let closed = false;
    server.setRequestHandler('tools/call', async (request, context) => {
      if (!this.#started) await this.#ready;
      try {
        return await this.#callTool(
          threadId,
          request.params.name,
          request.params.arguments,
          context,
        );
      } finally {
        // A call still running when its session closed (a load, a touch) writes after the
        // clean-up below: clear again, or a disconnected session's loads stay in the store.
        if (closed && forget) await this.engine.clearState(threadId).catch(() => undefined);
      }
    });
    server.onclose = () => {
      closed = true;
      this.#sessions.delete(server);
      if (forget) this.engine.clearState(threadId).catch(() => undefined);
    };
    this.#sessions.set(server, threadId);
    return server;
  }

  /**
   * Creates a session's server and connects it to a transport.
   * @returns the server, and a promise that resolves when the transport closes
   */
  async connect(
    transport: Transport,
    options: GatewaySessionOptions = {},
  ): Promise<{ server: Server; closed: Promise<void> }> {
    const server = this.createServer(options);
    const cleanup = server.onclose;
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => {
        cleanup?.();
        resolve();
      };
    });
    await server.connect(transport);
    return { server, closed };
  }

  /** Closes every session and stops every upstream. */
  async close(): Promise<void> {
    this.#unsubscribe();
    await Promise.all(
      [...this.#sessions.keys()].map((server) => server.close().catch(() => undefined)),
    );
    this.#sessions.clear();
    await this.upstreams.close();
    this.#ownStore?.dispose();
  }

  #buildEngine(tools: readonly GatewayTool[], warn: boolean): ToolSearchEngine<GatewayTool> {
    const names = new Set(tools.map((tool) => tool.name));
    const pinned = this.#toolSearch.alwaysLoaded ?? [];
    for (const name of pinned) {
      if (warn && !names.has(name))
        this.#log(`toolSearch.alwaysLoaded names "${name}", which no upstream offers now`);
    }
    const { topK, minScore, autoLoad, maxLoadedTools, unloadTool } = this.#toolSearch;
    this.#catalog++;
    const engine = createToolSearchEngine<GatewayTool>({
      tools: toToolRecord(tools.map((tool) => [tool.name, tool] as const)),
      describe: (tool, key) => ({
        id: key,
        description: tool.definition.description ?? tool.definition.title ?? '',
        ...(tool.definition.inputSchema && { inputSchema: tool.definition.inputSchema }),
      }),
      search: {
        ...(topK !== undefined && { topK }),
        ...(minScore !== undefined && { minScore }),
        ...(autoLoad !== undefined && { autoLoad }),
      },
      storage: this.#store,
      alwaysLoaded: pinned.filter((name) => names.has(name)),
      ...(maxLoadedTools !== undefined && { maxLoadedTools }),
      ...(unloadTool !== undefined && { unloadTool }),
      ...(this.#embed && { embed: this.#embed, ...(this.#fusion && { fusion: this.#fusion }) }),
      onError: ({ operation, error }) => this.#log(`${operation} failed: ${errorText(error)}`),
    });
    // Vectors are keyed by tool text: the previous catalog's serve the tools that did not change.
    const previous = this.#engine?.vectorCache;
    if (previous && previous.size > 0) engine.vectorCache?.restore(previous.serialize());
    return engine;
  }

  /** Embeds the catalog's new tool texts in the background; a failure is logged, never thrown. */
  #warmEmbeddings(engine: ToolSearchEngine<GatewayTool>): void {
    const cache = engine.vectorCache;
    if (!cache || engine.catalog.size === 0) return;
    const before = cache.size;
    engine.warmEmbeddings().then(
      () => {
        const added = cache.size - before;
        if (added > 0) {
          const model = this.#fusion?.model === undefined ? '' : ` with ${this.#fusion.model}`;
          this.#log(`embeddings: ${added} tool text(s) embedded${model}; search_tools fuses`);
        }
      },
      (error: unknown) => {
        this.#log(
          `embeddings: the catalog could not be embedded (${errorText(error)}); search_tools answers by BM25F alone until the endpoint answers`,
        );
      },
    );
  }

  /**
   * A session's `tools/list` answer: the previous one while the upstream catalog and the listed
   * tools are the same, else a new one.
   */
  async #listTools(threadId: string, previous: ListedTools | undefined): Promise<ListedTools> {
    const catalog = this.#catalog;
    const session = this.engine.createSession({ threadId });
    let listed = await session.activeTools();
    // Under proxy the list never changes after the first read: only pins, which are always there.
    if (this.expose === 'proxy') listed = listed.filter((active) => active.pinned);
    if (previous?.catalog === catalog && sameTools(previous.listed, listed)) return previous;
    const tools = session.metaTools.map(toMcpDefinition);
    if (this.expose === 'proxy') tools.push(CALL_TOOL_DEFINITION);
    for (const active of listed) tools.push({ ...active.tool.definition, name: active.id });
    return { catalog, listed, tools };
  }

  async #callTool(
    threadId: string,
    name: string,
    args: Record<string, unknown> | undefined,
    context: ServerContext,
  ): Promise<CallToolResult> {
    const session = this.engine.createSession({ threadId });
    const metaTool = session.metaTools.find((tool) => tool.name === name);
    if (metaTool) {
      if (name === 'search_tools') this.upstreams.retryMissing();
      const before = this.expose === 'tools' ? await session.activeTools() : [];
      const output = (await metaTool.execute(args ?? {})) as Record<string, unknown>;
      if (this.expose === 'proxy' && name === 'load_tool')
        output.tools = this.#loadedSchemas(output);
      if (this.expose === 'tools') {
        // A new session only if the catalog changed meanwhile: the list is then the new engine's.
        const now =
          this.engine === session.engine ? session : this.engine.createSession({ threadId });
        if (!sameIds(before, await now.activeTools()))
          await this.#announceListChanged(threadId, context);
      }
      return {
        content: [{ type: 'text', text: JSON.stringify(output) }],
        structuredContent: output,
        ...(output.success === false && { isError: true }),
      };
    }
    if (this.expose === 'proxy' && name === CALL_TOOL_NAME) {
      const target = args?.name;
      const targetArgs = args?.arguments;
      if (typeof target !== 'string' || (targetArgs !== undefined && !isPlainObject(targetArgs))) {
        return errorResult(
          'call_tool needs "name" (the exact name of a loaded tool) and "arguments" (an object).',
        );
      }
      return this.#forward(session, target, targetArgs as Record<string, unknown> | undefined);
    }
    return this.#forward(session, name, args);
  }

  async #forward(
    session: ToolSearchSession<GatewayTool>,
    name: string,
    args: Record<string, unknown> | undefined,
  ): Promise<CallToolResult> {
    if (!(await session.isActive(name))) return errorResult(this.#notLoadedMessage(name));
    if (isNestedDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
      return errorResult(
        `The arguments of "${echo(name)}" are nested more than ${MAX_ARGUMENT_DEPTH} levels deep, which no tool takes; the call was not sent.`,
      );
    }
    try {
      return await this.upstreams.callTool(name, args);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof UpstreamError) return errorResult(error.message);
      throw error;
    }
  }

  #notLoadedMessage(name: string): string {
    const shown = echo(name);
    const how = this.#toolSearch.autoLoad
      ? 'Call search_tools with what you want to do (the tools it finds are loaded)'
      : 'Call search_tools with what you want to do, then load_tool with the exact name it returns';
    const then = this.expose === 'proxy' ? 'then call it through call_tool' : 'then call the tool';
    return `Tool "${shown}" is not loaded. ${how}, ${then}.`;
  }

  /** Under proxy: the definitions of the tools a `load_tool` call made available. */
  #loadedSchemas(
    output: Record<string, unknown>,
  ): Pick<Tool, 'name' | 'description' | 'inputSchema'>[] {
    const names = new Set<string>();
    if (output.success === true && typeof output.toolName === 'string') names.add(output.toolName);
    for (const key of ['loaded', 'alreadyLoaded'] as const) {
      const list = output[key];
      if (Array.isArray(list))
        for (const item of list) if (typeof item === 'string') names.add(item);
    }
    return [...names].flatMap((name) => {
      const tool = this.upstreams.lookup(name);
      if (!tool) return [];
      const { description, inputSchema } = tool.definition;
      return [{ name, ...(description !== undefined && { description }), inputSchema }];
    });
  }

  async #announceListChanged(threadId: string, context: ServerContext): Promise<void> {
    const notification = { method: 'notifications/tools/list_changed' as const };
    try {
      // On the request's own stream, so an HTTP client without a standalone stream still hears it.
      await context.mcpReq.notify(notification);
    } catch {
      // Every open session of the thread: they all list its tools.
      const sessions = [...this.#sessions].filter(([, thread]) => thread === threadId);
      await Promise.all(
        sessions.map(([server]) => server.sendToolListChanged().catch(() => undefined)),
      );
    }
  }
}

/**
 * Creates a gateway over an upstream manager.
 * @param options - the upstreams, the `toolSearch` config, server info and log
 * @example
 * const upstreams = createUpstreamManager({ servers: config.mcpServers });
 * const gateway = createToolSearchGateway({ upstreams, toolSearch: config.toolSearch });
 * await gateway.connect(new StdioServerTransport());
 */
export function createToolSearchGateway(options: ToolSearchGatewayOptions): ToolSearchGateway {
  return new ToolSearchGateway(options);
}

/** Whether two lists hold the same tools, by name and upstream tool object, in the same order. */
function sameTools(
  left: readonly ActiveTool<GatewayTool>[],
  right: readonly ActiveTool<GatewayTool>[],
): boolean {
  return (
    left.length === right.length &&
    left.every(
      (tool, position) => tool.id === right[position]!.id && tool.tool === right[position]!.tool,
    )
  );
}

/** Whether two lists name the same tools in the same order. */
function sameIds(
  left: readonly ActiveTool<GatewayTool>[],
  right: readonly ActiveTool<GatewayTool>[],
): boolean {
  return (
    left.length === right.length && left.every((tool, position) => tool.id === right[position]!.id)
  );
}

/** Characters of an error kept in a log line. */
const MAX_LOGGED_ERROR = 300;

/** An error as one log line, cut to 300 characters. */
function oneLine(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  return text.length > MAX_LOGGED_ERROR ? `${text.slice(0, MAX_LOGGED_ERROR)}…` : text;
}

/** A tool name as error messages show it: cut, so a hostile name is never echoed whole. */
function echo(name: string): string {
  return name.length > MAX_ECHOED_NAME ? `${name.slice(0, MAX_ECHOED_NAME)}…` : name;
}

/** Causes nested deeper than this are left out of a log line. */
const MAX_CAUSES = 4;

/**
 * An error and its causes as one line ("EmbeddingError: The embedder failed: fetch failed:
 * connect ECONNREFUSED ..."), cut as `oneLine` cuts: the reason is often two causes down.
 */
function errorText(error: unknown): string {
  let text = String(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth++) {
    const errors = cause instanceof AggregateError ? cause.errors : [];
    const message =
      cause instanceof Error
        ? cause.message ||
          (cause as { code?: unknown }).code?.toString() ||
          (errors[0] instanceof Error ? errors[0].message : '')
        : String(cause);
    if (message) text += `: ${message}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return oneLine(text);
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
