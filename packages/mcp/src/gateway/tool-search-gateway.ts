import { randomUUID } from 'node:crypto';
import {
  Server,
  type ServerContext,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  type ActiveTool,
  createMemoryStore,
  type EmbedFunction,
  type FusionSettings,
  type LoadedToolsStore,
  type MemoryStore,
  type ToolSearchEngine,
  toolSearchInstructions,
} from 'tool-search-core';
import { DEFAULT_EXPOSE, type ExposeMode, type ToolSearchConfig } from '../config/gateway-config';
import type { GatewayTool, ToolsChange, UpstreamManager } from '../upstream/upstream-manager';
import { forwardOptionsOf } from './forward-options';
import {
  buildGatewayEngine,
  type GatewayEngineSettings,
  warmGatewayEmbeddings,
} from './gateway-engine';
import { oneLine } from './gateway-text';
import { toMcpDefinition } from './gateway-tool-definitions';
import { createModernServer } from './modern-server';
import { SessionHandles } from './session-handles';
import { ToolCalls } from './tool-calls';

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
  /**
   * How long (ms) a `tools/list` or `tools/call` waits for upstreams that are still on their
   * first start. Past it, the request is answered from the upstreams that have started, and
   * `search_tools` names the others (`notSearchable`).
   * @default 10_000
   */
  startWait?: number | undefined;
  /**
   * Session handles of protocol revision 2026-07-28 (which has no sessions) kept at most; past it
   * the least recently used one is forgotten with its loaded tools.
   * @default 1_000
   */
  maxHandles?: number | undefined;
  /**
   * A handle unused this long (ms) is forgotten with its loaded tools.
   * @default 3_600_000 (one hour)
   */
  handleTtl?: number | undefined;
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

/** Default wait for first starts: long enough for most cold starts, short of clients' timeouts. */
export const DEFAULT_START_WAIT = 10_000;
/** Default handle bound: as many as HTTP sessions, for the same reason (memory per caller). */
const DEFAULT_MAX_HANDLES = 1_000;
/** Default idle time of a handle: the core store's default expiry. */
const DEFAULT_HANDLE_TTL = 3_600_000;

/**
 * One session's last `tools/list` answer and what it was built from. The loaded tools are read
 * from the store on every request (another connection or instance may share the thread); the
 * answer is rebuilt only when they, or the upstream catalog, differ.
 */
interface ListedTools {
  /** The catalog it was built from (a number, so an old catalog is not kept alive by a session). */
  catalog: number;
  /** Whether the session searched (meta-tools listed) or was given every tool directly. */
  search: boolean;
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
  /** How loaded tools reach the client (2025 revisions; revision 2026-07-28 is always `proxy`). */
  readonly expose: ExposeMode;
  /** The config's `toolSearch` object. */
  readonly toolSearch: ToolSearchConfig;
  /** The name and version the gateway gives MCP clients. */
  readonly serverInfo: { name: string; version: string };
  /** Runs `tools/call` for every session. */
  readonly calls: ToolCalls;
  /** Session handles of protocol revision 2026-07-28. */
  readonly handles: SessionHandles;
  readonly #log: (message: string) => void;
  readonly #engineSettings: GatewayEngineSettings;
  /** The store the gateway made itself, and so disposes of. */
  readonly #ownStore: MemoryStore | undefined;
  /** Open sessions, each with its thread (several sessions may share one thread). */
  readonly #sessions = new Map<Server, string>();
  /** Sessions that listed tools before the first starts were over: told when they are. */
  readonly #listedEarly = new Set<Server>();
  readonly #ready: Promise<void>;
  readonly #unsubscribe: () => void;
  readonly #startWait: number;
  /** Exposed names whose upstream tool has gone, with its server (names never move). */
  readonly #vanished = new Map<string, string>();
  #engine: ToolSearchEngine<GatewayTool> | undefined;
  /** The upstream tool list changed since the engine was built. */
  #stale = true;
  /** Counts engine builds: which upstream catalog a cached `tools/list` answer was built from. */
  #catalog = 0;
  /** Set once `ready()` has resolved. */
  #started = false;

  constructor(options: ToolSearchGatewayOptions) {
    this.upstreams = options.upstreams;
    this.toolSearch = options.toolSearch ?? {};
    this.expose = this.toolSearch.expose ?? DEFAULT_EXPOSE;
    this.serverInfo = options.serverInfo ?? { name: 'tool-search-mcp', version: '0.0.0' };
    const log =
      options.log ?? ((message) => process.stderr.write(`[tool-search-mcp] ${message}\n`));
    this.#log = log;
    this.#ownStore = options.storage ? undefined : createMemoryStore({ ttl: 0 });
    this.#engineSettings = {
      toolSearch: this.toolSearch,
      store: options.storage ?? this.#ownStore!,
      embed: options.embed,
      fusion: options.fusion,
      log,
      runTool: (run) => this.calls.runTool(run),
    };
    this.#startWait = options.startWait ?? DEFAULT_START_WAIT;
    this.calls = new ToolCalls(this);
    this.handles = new SessionHandles({
      max: options.maxHandles ?? DEFAULT_MAX_HANDLES,
      idleTtl: options.handleTtl ?? DEFAULT_HANDLE_TTL,
      onForget: (threadId) => {
        this.engine.clearState(threadId).catch(() => undefined);
      },
    });
    this.#unsubscribe = this.upstreams.onToolsChanged((_tools, change) => this.#changed(change));
    this.#ready = this.upstreams.start().then(() => {
      this.#started = true;
      warmGatewayEmbeddings(this.engine, this.#engineSettings);
      for (const server of this.#listedEarly) server.sendToolListChanged().catch(() => undefined);
      this.#listedEarly.clear();
    });
  }

  /** The core engine over the current upstream tools (rebuilt when an upstream's tools change). */
  get engine(): ToolSearchEngine<GatewayTool> {
    if (this.#stale || !this.#engine) {
      this.#stale = false;
      this.#catalog++;
      this.#engine = buildGatewayEngine(this.upstreams.tools, {
        ...this.#engineSettings,
        warn: this.#started,
        previous: this.#engine,
      });
    }
    return this.#engine;
  }

  /**
   * Whether a session connecting now is likely to search (its instructions explain the
   * meta-tools): by the catalog known so far, or, before any is known, unless search is off.
   */
  #searches(): boolean {
    if (this.#started || this.upstreams.tools.length > 0) return this.engine.searchesCatalog;
    return this.toolSearch.enabled !== false;
  }

  /** Resolves once the upstreams have started (or failed). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Open MCP sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * Resolves once the first starts are over, or after `startWait` ms: requests then answer from
   * the upstreams that have started, and searches name the others.
   */
  async waitForStart(): Promise<void> {
    if (this.#started) return;
    // Cached tool lists are a few files away: always worth waiting for.
    await this.upstreams.cachedToolsRead();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.#startWait);
      timer.unref?.();
      void this.#ready.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The server of an exposed name whose upstream tool has gone, or `undefined`. */
  vanishedFrom(name: string): string | undefined {
    return this.#vanished.get(name);
  }

  /** Writes a line to the gateway's log. */
  log(message: string): void {
    this.#log(message);
  }

  /**
   * A new MCP server for one session of the 2025 protocol revisions; connect it to any transport.
   * Its loaded tools are its own.
   * @param options - the session's thread id, and whether closing it clears that thread
   */
  createServer(options: GatewaySessionOptions = {}): Server {
    const threadId = options.threadId ?? randomUUID();
    const forget = options.forgetOnClose ?? options.threadId === undefined;
    const { autoLoad = false, unloadTool = false } = this.toolSearch;
    const server = new Server(this.serverInfo, {
      capabilities: { tools: { listChanged: true } },
      ...(this.#searches() && {
        instructions: toolSearchInstructions({ autoLoad, unloadTool, expose: this.expose }),
      }),
    });
    let listed: ListedTools | undefined;
    server.setRequestHandler('tools/list', async () => {
      await this.waitForStart();
      if (!this.#started) this.#listedEarly.add(server);
      this.upstreams.retryMissing();
      listed = await this.#listTools(threadId, listed);
      // A copy: the cached array must not change whatever the transport does with the answer.
      return { tools: [...listed.tools] };
    });
    // The transport's own errors (a message over the SDK's size limit, which ends a stdio
    // session) would otherwise go unseen: they reach the log. Only the id's start: over HTTP the
    // id is the session's capability, and logs are read by others.
    server.onerror = (error) => this.#log(`session ${threadId.slice(0, 8)}…: ${oneLine(error)}`);
    let closed = false;
    server.setRequestHandler('tools/call', async (request, context) => {
      await this.waitForStart();
      try {
        return await this.calls.call({
          threadId,
          name: request.params.name,
          args: request.params.arguments,
          expose: this.expose,
          forward: forwardOptionsOf(context),
          onListChanged: () => this.#announceListChanged(threadId, context),
        });
      } finally {
        // A call still running when its session closed (a load, a touch) writes after the
        // clean-up below: clear again, or a disconnected session's loads stay in the store.
        if (closed && forget) await this.engine.clearState(threadId).catch(() => undefined);
      }
    });
    server.onclose = () => {
      closed = true;
      this.#sessions.delete(server);
      this.#listedEarly.delete(server);
      if (forget) this.engine.clearState(threadId).catch(() => undefined);
    };
    this.#sessions.set(server, threadId);
    return server;
  }

  /**
   * A new MCP server for protocol revision 2026-07-28 (no sessions; the tool list of
   * `expose: 'proxy'` for every client). With a `threadId` (one stdio connection) that thread
   * holds its loaded tools, cleared when the connection closes; without one (HTTP, one server
   * per request) `load_tool` answers a session handle that the client passes back.
   * @param options - the connection's thread, when the transport is a connection
   */
  createModernServer(options: { threadId?: string } = {}): Server {
    const server = createModernServer(this, options.threadId);
    const threadId = options.threadId;
    if (threadId !== undefined) {
      server.onclose = () => {
        this.#sessions.delete(server);
        this.engine.clearState(threadId).catch(() => undefined);
      };
      this.#sessions.set(server, threadId);
    }
    return server;
  }

  /**
   * Creates a session's server (2025 revisions) and connects it to a transport.
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
    this.handles.clear();
    await this.upstreams.close();
    this.#ownStore?.dispose();
  }

  /**
   * The upstream tool list changed: the engine is rebuilt when next used. After the first
   * starts, sessions are told to list again; a loaded tool whose upstream tool has gone is
   * unloaded from every open session and handle (its name is never given to another tool).
   */
  #changed(change: ToolsChange): void {
    this.#stale = true;
    for (const name of this.#vanished.keys())
      if (this.upstreams.lookup(name)) this.#vanished.delete(name);
    if (!this.#started) return;
    // The engine built before the change still knows each removed name's server.
    for (const name of change.removed)
      this.#vanished.set(name, this.#engine?.catalog.get(name)?.tool.server ?? '?');
    warmGatewayEmbeddings(this.engine, this.#engineSettings);
    if (change.removed.length > 0) void this.#unloadVanished(change.removed);
    for (const server of this.#sessions.keys()) server.sendToolListChanged().catch(() => undefined);
  }

  async #unloadVanished(names: readonly string[]): Promise<void> {
    const threads = new Set([...this.#sessions.values(), ...this.handles.threads()]);
    let sessions = 0;
    for (const threadId of threads) {
      try {
        const session = this.engine.createSession({ threadId });
        const change = await session.applyOperation({ type: 'unload', ids: names });
        if (change.unloaded.length > 0) sessions++;
      } catch (error) {
        this.#log(`unloading vanished tools failed: ${oneLine(error)}`);
      }
    }
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
    this.#log(
      `${names.length} tool(s) no longer offered by their servers (${shown}); unloaded from ${sessions} session(s); their names stay unused`,
    );
  }

  /**
   * A session's `tools/list` answer: the previous one while the upstream catalog and the listed
   * tools are the same, else a new one.
   */
  async #listTools(threadId: string, previous: ListedTools | undefined): Promise<ListedTools> {
    const engine = this.engine;
    const catalog = this.#catalog;
    const session = engine.createSession({ threadId, expose: this.expose });
    // Under proxy the list never changes after the first read: only pins, which are always there.
    // Below the `enabled: "auto"` threshold: every tool the session may use, and no meta-tools.
    const offer = await session.offer();
    const listed = offer.tools;
    if (
      previous?.catalog === catalog &&
      previous.search === offer.search &&
      sameTools(previous.listed, listed)
    )
      return previous;
    const tools = offer.metaTools.map(toMcpDefinition);
    for (const active of listed) tools.push({ ...active.tool.definition, name: active.id });
    return { catalog, search: offer.search, listed, tools };
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
