import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { echoName } from 'tool-search-core';
import type { UpstreamConfig } from '../config/gateway-config';
import { isToolAllowed } from '../config/glob';
import { ExposedNameRegistry } from '../names/exposed-name-registry';
import { DefinitionPins, type DefinitionPinsOptions } from '../pins/definition-pins';
import type { ListCacheHints } from './list-cache-hints';
import type { ManifestCache } from './manifest-cache';
import { defaultStartConcurrency, StartLimiter } from './start-limiter';
import {
  type RestartBackoff,
  type UpstreamCallOptions,
  UpstreamConnection,
  UpstreamError,
  type UpstreamStatus,
} from './upstream-connection';

/** An upstream tool as the gateway exposes it. */
export interface GatewayTool {
  /** The exposed name, `<server>__<tool>` (see `toExposedName`). */
  name: string;
  /** The server's name in `mcpServers`. */
  server: string;
  /** The upstream's own definition, unchanged (its `name` is the upstream's name). */
  definition: Tool;
  /**
   * The server asks for the tool to be always loaded (`_meta["anthropic/alwaysLoad"]: true`) and
   * its config entry does not turn the hint off (`alwaysLoadHint: false`).
   */
  alwaysLoad?: true;
}

/** The `_meta` key by which a server asks for a tool to be loaded from the start (Claude Code reads it too). */
export const ALWAYS_LOAD_META_KEY = 'anthropic/alwaysLoad';

/** Options of {@link createUpstreamManager}. */
export interface UpstreamManagerOptions {
  /** The `mcpServers` object of the config. */
  servers: Readonly<Record<string, UpstreamConfig>>;
  /** Where tool lists are kept between runs; without one every upstream is started at once. */
  cache?: ManifestCache | undefined;
  /**
   * Handshake plus first tool list of one upstream, in ms, counted from its start (not from its
   * wait for a start slot).
   * @default 10_000
   */
  connectTimeout?: number;
  /**
   * Upstreams started at once; the others wait for a slot. Calls that need a start go first.
   * @default twice the machine's cores, from 2 to 16 ({@link defaultStartConcurrency})
   */
  startConcurrency?: number;
  /**
   * One forwarded call, in ms; an upstream that does not answer in time is stopped.
   * @default 60_000
   */
  callTimeout?: number;
  /** Delays between restarts of a failed upstream. */
  restartBackoff?: Partial<RestartBackoff>;
  /** The name and version sent to upstreams in the handshake. */
  clientInfo?: { name: string; version: string };
  /**
   * Receives log lines (upstream starts, failures, stderr).
   * @default writes to stderr
   */
  log?: (message: string) => void;
  /**
   * Pins each tool's definition on first sight and quarantines a tool whose definition changes
   * (see `DefinitionPins`): a quarantined tool is left out of `tools`, so nothing above sees it.
   * @default nothing is pinned
   */
  definitionPins?: DefinitionPinsOptions | undefined;
  /**
   * The environment stdio upstreams inherit from: the MCP SDK's defaults (HOME, PATH...), the
   * network and TLS variables and what each entry's `inheritEnv` names (see `upstreamEnvironment`).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
}

/** What changed in the tool list, besides the new list itself. */
export interface ToolsChange {
  /** Exposed names that were in the list and are not any more (their upstream tool is gone). */
  removed: readonly string[];
}

/** A server whose tools are not searchable now, and why. */
export interface UnsearchableServer {
  /** The server's name in `mcpServers`. */
  server: string;
  /** `starting`: its first start has not finished; `failed`: it did not start (no cached list). */
  reason: 'starting' | 'failed';
  /** Why it failed: the error, how it exited and the end of its stderr (for `failed`). */
  error?: string;
}

/** One upstream's state, for logs and status pages. */
export interface UpstreamState {
  /** The server's name in `mcpServers`. */
  server: string;
  status: UpstreamStatus;
  /** Tools known for it (from the cache or the live server), after `allowTools` / `denyTools`. */
  toolCount: number;
  /** Whether its tools came from the manifest cache and it has not been started yet. */
  fromCache: boolean;
  /** Why it last failed. */
  error?: string;
}

/** Default handshake timeout: npx-started servers may need a few seconds the first time. */
export const DEFAULT_CONNECT_TIMEOUT = 10_000;
/** Default call timeout: the MCP SDK's own default request timeout. */
export const DEFAULT_CALL_TIMEOUT = 60_000;
const DEFAULT_BACKOFF: RestartBackoff = { initial: 1_000, max: 60_000 };

/**
 * The gateway's upstream side: connections, manifest cache, lazy start, restarts. It knows nothing
 * of MCP clients or search; the gateway reads {@link UpstreamManager.tools} and forwards calls here.
 */
export class UpstreamManager {
  readonly #connections: UpstreamConnection[];
  readonly #manifests = new Map<string, Tool[]>();
  readonly #fromCache = new Set<string>();
  readonly #listeners = new Set<(tools: readonly GatewayTool[], change: ToolsChange) => void>();
  readonly #names = new ExposedNameRegistry();
  /** Tools already logged as left out for requiring tasks, so a refresh does not log them again. */
  readonly #taskOnlyLogged = new Set<string>();
  readonly #limiter: StartLimiter;
  readonly #cache: ManifestCache | undefined;
  readonly #log: (message: string) => void;
  readonly #pins: DefinitionPins | undefined;
  /** Each server's cache hints for its tool list (from its last list, live or cached). */
  readonly #hints = new Map<string, ListCacheHints>();
  #tools: GatewayTool[] = [];
  #byName = new Map<string, GatewayTool>();
  #started: Promise<void> | undefined;
  /** Resolves once the cached manifests have been read (their tools are then in `tools`). */
  #cacheRead: Promise<void> | undefined;
  /** Cache writes in flight: `close()` waits for them, so a short-lived caller leaves complete files. */
  readonly #writes = new Set<Promise<void>>();
  /** Set once every upstream has a manifest or has failed its first start. */
  #settled = false;

  constructor(options: UpstreamManagerOptions) {
    this.#cache = options.cache;
    this.#log =
      options.log ?? ((message) => process.stderr.write(`[tool-search-mcp] ${message}\n`));
    const restartBackoff = { ...DEFAULT_BACKOFF, ...options.restartBackoff };
    this.#limiter = new StartLimiter(options.startConcurrency ?? defaultStartConcurrency());
    this.#connections = Object.entries(options.servers).map(
      ([name, config]) =>
        new UpstreamConnection({
          name,
          config,
          connectTimeout:
            config.connectTimeout ?? options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT,
          callTimeout: options.callTimeout ?? DEFAULT_CALL_TIMEOUT,
          restartBackoff,
          clientInfo: options.clientInfo ?? { name: 'tool-search-mcp', version: '0.0.0' },
          log: this.#log,
          onTools: (tools, hints) => this.#received(name, config, tools, hints),
          limiter: this.#limiter,
          env: options.env,
        }),
    );
    this.#pins =
      options.definitionPins && new DefinitionPins({ ...options.definitionPins, log: this.#log });
    // An approval (or another instance's pin) changes which tools are offered.
    this.#pins?.onChange(() => {
      if (this.#cacheRead) this.#rebuildAndNotify();
    });
  }

  /** What a server said about caching its tool list (`ttlMs`, `cacheScope`), if anything. */
  listHints(server: string): ListCacheHints | undefined {
    return this.#hints.get(server);
  }

  /** Every exposed upstream tool, in config order, then each server's own order. */
  get tools(): readonly GatewayTool[] {
    return this.#tools;
  }

  /** Upstreams started at once at most. */
  get startConcurrency(): number {
    return this.#limiter.limit;
  }

  /** Whether every upstream has a tool list (cached or live) or has failed its first start. */
  get settled(): boolean {
    return this.#settled;
  }

  /**
   * Reads cached manifests and starts every upstream without one, `startConcurrency` at a time,
   * each under the connect timeout counted from its own start: a slow or broken upstream never
   * holds up the others, and never throws here. Each upstream's tools join `tools` as soon as it
   * has listed them (listeners hear of it). Resolves when every upstream has a manifest or has
   * failed. Calling it again returns the same promise.
   */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  /**
   * Resolves once `start()` has read the cached manifests (a few files, read at once), so their
   * tools are searchable; the upstreams without one may still be starting.
   */
  cachedToolsRead(): Promise<void> {
    void this.start();
    return this.#cacheRead!;
  }

  /**
   * Called with the new tool list whenever it changes, also while the first starts are still
   * running. Returns a function that unsubscribes.
   */
  onToolsChanged(
    listener: (tools: readonly GatewayTool[], change: ToolsChange) => void,
  ): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Servers whose tools are not in `tools` now: still starting, or failed without a cached list. */
  unsearchable(): UnsearchableServer[] {
    return this.#connections.flatMap((connection) => {
      if (this.#manifests.has(connection.name)) return [];
      const reason = connection.status === 'failed' ? ('failed' as const) : ('starting' as const);
      const error = reason === 'failed' ? connection.lastError : undefined;
      return [{ server: connection.name, reason, ...(error !== undefined && { error }) }];
    });
  }

  /** The tool an exposed name stands for. */
  lookup(exposedName: string): GatewayTool | undefined {
    return this.#byName.get(exposedName);
  }

  /**
   * Forwards a call to the upstream of an exposed tool, starting it when needed.
   * @throws {UpstreamError} when the tool is unknown or its upstream is unavailable
   */
  async callTool(
    exposedName: string,
    args: Record<string, unknown> | undefined,
    options: UpstreamCallOptions = {},
  ): Promise<CallToolResult> {
    const tool = this.#byName.get(exposedName);
    if (!tool) throw new UpstreamError('?', `no upstream tool is named "${exposedName}"`);
    const connection = this.#connections.find((candidate) => candidate.name === tool.server)!;
    if (
      connection.status === 'idle' ||
      (connection.status === 'failed' && connection.retryIn === 0)
    )
      this.#log(`${connection.name}: starting for ${tool.definition.name}`);
    if (this.#pins && connection.status !== 'ready' && connection.retryIn === 0) {
      // A start lists the tools again: a definition that changed since the cached one was trusted
      // is quarantined by then, and the call must not reach it. A failed start is the call's to report.
      await connection.connect({ urgent: true }).catch(() => undefined);
      // Answered as the gateway answers a call of any tool that has gone (the model cannot tell).
      if (!this.#byName.has(exposedName)) return vanishedResult(exposedName, tool.server);
    }
    return connection.callTool(tool.definition.name, args, options);
  }

  /**
   * Restarts, in the background, upstreams that have no tool list (they failed at start) once
   * their backoff has passed. The gateway calls it on searches: such an upstream has no tool to
   * call, so a search is the next chance to bring its tools back.
   */
  retryMissing(): void {
    for (const connection of this.#connections) {
      if (this.#manifests.has(connection.name)) continue;
      if (connection.status !== 'failed' || connection.retryIn > 0) continue;
      connection.connect().catch(() => undefined);
    }
  }

  /** Each upstream's state. */
  states(): UpstreamState[] {
    return this.#connections.map((connection) => ({
      server: connection.name,
      status: connection.status,
      toolCount: this.#tools.filter((tool) => tool.server === connection.name).length,
      fromCache: this.#fromCache.has(connection.name),
      ...(connection.lastError !== undefined && { error: connection.lastError }),
    }));
  }

  /** Process ids of the stdio upstreams running now. */
  runningPids(): number[] {
    return this.#connections.flatMap((connection) =>
      connection.pid === undefined ? [] : [connection.pid],
    );
  }

  /** Stops every upstream. */
  async close(): Promise<void> {
    this.#listeners.clear();
    await Promise.all(this.#connections.map((connection) => connection.close()));
    await Promise.all(this.#writes);
    await this.#pins?.close();
  }

  async #start(): Promise<void> {
    this.#cacheRead = this.#readCache();
    await this.#cacheRead;
    await Promise.all(
      this.#connections
        .filter((connection) => !this.#manifests.has(connection.name))
        .map((connection) => connection.connect().catch(() => undefined)),
    );
    this.#settled = true;
  }

  /**
   * Cached lists first, all together: the catalog they make is searchable at once, and its names
   * are given in config order, as on every warm start.
   */
  async #readCache(): Promise<void> {
    await this.#pins?.start();
    const cached = await Promise.all(
      this.#connections.map((connection) => this.#readManifest(connection.config)),
    );
    this.#connections.forEach((connection, position) => {
      const manifest = cached[position];
      if (!manifest) return;
      this.#manifests.set(connection.name, manifest.tools);
      this.#hints.set(connection.name, manifest.hints);
      this.#fromCache.add(connection.name);
    });
    this.#rebuildAndNotify();
  }

  async #readManifest(
    config: UpstreamConfig,
  ): Promise<{ tools: Tool[]; hints: ListCacheHints } | undefined> {
    const cache = this.#cache;
    if (!cache) return undefined;
    if (!cache.readManifest) {
      const tools = await cache.read(config);
      return tools && { tools, hints: {} };
    }
    const manifest = await cache.readManifest(config);
    if (!manifest) return undefined;
    const { tools, savedAt: _savedAt, ...hints } = manifest;
    return { tools, hints };
  }

  #received(name: string, config: UpstreamConfig, tools: Tool[], hints: ListCacheHints): void {
    const previous = this.#manifests.get(name);
    this.#fromCache.delete(name);
    this.#hints.set(name, hints);
    const same = previous !== undefined && JSON.stringify(previous) === JSON.stringify(tools);
    // The same list with a ttlMs is written again all the same: its time to live starts anew.
    if (same && hints.ttlMs === undefined) return;
    this.#manifests.set(name, tools);
    const write = this.#cache?.write(config, tools, hints).catch((error: unknown) => {
      this.#log(`${name}: the manifest cache could not be written: ${String(error)}`);
    });
    if (write) {
      this.#writes.add(write);
      void write.finally(() => this.#writes.delete(write));
    }
    if (!same) this.#rebuildAndNotify();
  }

  #rebuildAndNotify(): void {
    const before = this.#tools;
    this.#rebuild();
    if (sameTools(before, this.#tools)) return;
    const removed = before.filter((tool) => !this.#byName.has(tool.name)).map((tool) => tool.name);
    for (const listener of this.#listeners) {
      try {
        listener(this.#tools, { removed });
      } catch (error) {
        this.#log(`a tools-changed listener failed: ${String(error)}`);
      }
    }
  }

  #rebuild(): void {
    const tools: GatewayTool[] = [];
    for (const connection of this.#connections) {
      const server = connection.name;
      const occurrences = new Map<string, number>();
      for (const definition of this.#manifests.get(server) ?? []) {
        if (!isToolAllowed(connection.config, definition.name)) continue;
        if (definition.execution?.taskSupport === 'required') {
          this.#logTaskOnly(server, definition.name);
          continue;
        }
        const occurrence = occurrences.get(definition.name) ?? 0;
        occurrences.set(definition.name, occurrence + 1);
        tools.push({
          name: this.#names.nameOf(server, definition.name, occurrence),
          server,
          definition,
          ...(definition._meta?.[ALWAYS_LOAD_META_KEY] === true &&
            connection.config.alwaysLoadHint !== false && { alwaysLoad: true as const }),
        });
      }
    }
    // Quarantined tools are left out here, so search, load and every call path never see them.
    const held = this.#pins?.screen(tools);
    this.#tools = held?.size ? tools.filter((tool) => !held.has(tool.name)) : tools;
    this.#byName = new Map(this.#tools.map((tool) => [tool.name, tool]));
  }

  /**
   * A tool that requires task-based execution cannot be called with a plain `tools/call`, and the
   * gateway does not forward tasks: it is left out rather than listed and then refused.
   */
  #logTaskOnly(server: string, tool: string): void {
    const key = `${server}\u0000${tool}`;
    if (this.#taskOnlyLogged.has(key)) return;
    this.#taskOnlyLogged.add(key);
    this.#log(
      `${server}: tool "${tool}" is not offered: it requires task-based execution (execution.taskSupport "required"), which the gateway does not forward`,
    );
  }
}

/** The answer to a call of a tool that went away while its upstream was starting for it. */
function vanishedResult(exposedName: string, server: string): CallToolResult {
  const text = `Tool "${echoName(exposedName)}" was unloaded: the MCP server "${server}" no longer offers it. Call search_tools to find another tool for the task.`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** Whether two tool lists hold the same names for the same definitions, in the same order. */
function sameTools(left: readonly GatewayTool[], right: readonly GatewayTool[]): boolean {
  return (
    left.length === right.length &&
    left.every((tool, position) => {
      const other = right[position]!;
      return (
        tool.name === other.name &&
        (tool.definition === other.definition ||
          JSON.stringify(tool.definition) === JSON.stringify(other.definition))
      );
    })
  );
}

/**
 * Creates the upstream side of a gateway; call `start()` before reading `tools`.
 * @param options - the `mcpServers` entries, the manifest cache, timeouts, backoff and log
 * @example
 * const upstreams = createUpstreamManager({ servers: config.mcpServers, cache: createManifestCache(defaultCacheDir()) });
 * await upstreams.start();
 * console.log(upstreams.tools.map((tool) => tool.name));
 */
export function createUpstreamManager(options: UpstreamManagerOptions): UpstreamManager {
  return new UpstreamManager(options);
}

/**
 * Lists the tools of every upstream of a config, then stops them: for tools that inspect a
 * config's catalog. Upstreams are connected in parallel, each under the connect timeout; with a
 * `cache`, an upstream with a cached manifest is read from it and not started, and the others'
 * manifests are written to it. Failed upstreams are reported in `states`, not thrown.
 * @param options - as for {@link createUpstreamManager}, and a `signal` that stops every
 *   upstream at once (also those still starting) and rejects with its reason
 */
export async function listUpstreamTools(
  options: UpstreamManagerOptions & { signal?: AbortSignal | undefined },
): Promise<{ tools: GatewayTool[]; states: UpstreamState[] }> {
  const { signal, ...managerOptions } = options;
  const manager = createUpstreamManager(managerOptions);
  let onAbort: (() => void) | undefined;
  try {
    signal?.throwIfAborted();
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    // The stop runs in `finally`, so nothing the upstreams started outlives the call.
    await Promise.race([manager.start(), aborted]);
    return { tools: [...manager.tools], states: manager.states() };
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await manager.close();
  }
}
