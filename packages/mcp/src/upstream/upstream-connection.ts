import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  type CallToolResult,
  Client,
  type Progress,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isHttpUpstream, type UpstreamConfig } from '../config/gateway-config';
import { variableRedactor } from '../config/variable-values';
import type { ListCacheHints } from './list-cache-hints';
import { MAX_LIST_PAGES, readToolList } from './read-tool-list';
import type { StartLimiter } from './start-limiter';

/**
 * Where an upstream is: not started yet (its tools may come from the cache), waiting for a start
 * slot, starting, up, or down.
 */
export type UpstreamStatus = 'idle' | 'queued' | 'connecting' | 'ready' | 'failed';

/** What a forwarded call carries besides its arguments: the caller's cancellation and progress. */
export interface UpstreamCallOptions {
  /** Aborts the call: the upstream is sent a cancellation, and the call rejects. */
  signal?: AbortSignal | undefined;
  /**
   * Receives the upstream's progress notifications for this call; when given, the upstream is
   * asked for progress, and each notification also restarts the call timeout (it is alive).
   */
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** An upstream could not be reached or did not answer; the message says why, for the model and the log. */
export class UpstreamError extends Error {
  readonly server: string;

  constructor(server: string, reason: string) {
    super(`The MCP server "${server}" is unavailable: ${reason}`);
    this.name = 'UpstreamError';
    this.server = server;
  }
}

/**
 * Delays after failed starts: `initial` after the first, doubling up to `max`, reset by a call that
 * gets an answer. An upstream that exits or hangs after a good start is restarted on the next call.
 */
export interface RestartBackoff {
  /** @default 1_000 */
  initial: number;
  /** @default 60_000 */
  max: number;
}

/** Options of an {@link UpstreamConnection}. */
export interface UpstreamConnectionOptions {
  /** The server's name in `mcpServers`. */
  name: string;
  config: UpstreamConfig;
  /** Handshake plus first tool list, in ms. */
  connectTimeout: number;
  /** One forwarded call, in ms; an upstream that does not answer in time is stopped. */
  callTimeout: number;
  restartBackoff: RestartBackoff;
  /** The gateway's own name and version, sent in the handshake. */
  clientInfo: { name: string; version: string };
  log: (message: string) => void;
  /**
   * Receives each fresh tool list: after every connect and on the upstream's `list_changed`, with
   * the server's cache hints for it.
   */
  onTools: (tools: Tool[], hints: ListCacheHints) => void;
  /** Bounds how many upstreams start at once; the connect timeout runs from the start itself. */
  limiter: StartLimiter;
}

export { MAX_TOOL_LIST_BYTES } from './read-tool-list';

/**
 * One upstream MCP server: started on demand, restarted after a failure (with backoff), and
 * never allowed to throw anything but an {@link UpstreamError} or the upstream's own JSON-RPC error.
 */
export class UpstreamConnection {
  readonly name: string;
  readonly config: UpstreamConfig;
  status: UpstreamStatus = 'idle';
  /** Why the upstream last failed. */
  lastError: string | undefined;
  readonly #options: UpstreamConnectionOptions;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #opening: Promise<Client> | undefined;
  /** Bumped on every open and close, so events of an old connection are ignored. */
  #generation = 0;
  #failures = 0;
  #retryAt = 0;
  /** The transport's last error since the connection was opened. */
  #transportError: string | undefined;
  /** Set by `close()`: a start still queued then does not run. */
  #closed = false;
  readonly #redact: (text: string) => string;
  /** The cache hints of the last tool list read. */
  #hints: ListCacheHints = {};

  constructor(options: UpstreamConnectionOptions) {
    // Every line and error about this server shows `${NAME}` where a config variable's value
    // would be: a server's error page, a URL with credentials or its own stderr may carry one.
    const redact = variableRedactor(options.config);
    this.#redact = redact;
    this.#options = { ...options, log: (message) => options.log(redact(message)) };
    this.name = options.name;
    this.config = options.config;
  }

  /** The child process id of a running stdio upstream. */
  get pid(): number | undefined {
    const transport = this.#transport;
    return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  }

  /** Milliseconds until a failed upstream may be restarted; 0 when it may be now. */
  get retryIn(): number {
    return this.status === 'failed' ? Math.max(0, this.#retryAt - Date.now()) : 0;
  }

  /**
   * Connects (one attempt at a time, once the limiter gives a slot), lists the tools and reports
   * them through `onTools`.
   * @param options - `urgent`: a call waits for this start, so it goes before queued ones
   * @throws {UpstreamError} when the upstream cannot be started, times out, or answers garbage
   */
  connect(options: { urgent?: boolean } = {}): Promise<Client> {
    if (this.#client && this.status === 'ready') return Promise.resolve(this.#client);
    this.#closed = false;
    if (!this.#opening) {
      this.status = 'queued';
      this.#opening = this.#options.limiter
        .run(() => {
          if (this.#closed) {
            this.status = 'idle';
            throw new UpstreamError(this.name, 'it was stopped before it started');
          }
          return this.#open();
        }, options)
        .finally(() => {
          this.#opening = undefined;
        });
    }
    return this.#opening;
  }

  /** Lists the tools again and reports them; a failure is logged, not thrown. */
  async refresh(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    try {
      this.#options.onTools(
        await this.#listTools(client, this.#options.connectTimeout),
        this.#hints,
      );
    } catch (error) {
      this.#options.log(`${this.name}: tools/list failed: ${describeError(error)}`);
    }
  }

  /**
   * Forwards one `tools/call` with its arguments unchanged and returns the upstream's result unchanged.
   * Starts the upstream when it is not running, unless a failed start is still backing off.
   * @throws {UpstreamError} when the upstream is down, exits, or does not answer within `callTimeout`
   * @throws {ProtocolError} the upstream's own JSON-RPC error, as it sent it
   */
  async callTool(
    toolName: string,
    args: Record<string, unknown> | undefined,
    options: UpstreamCallOptions = {},
  ): Promise<CallToolResult> {
    const wait = this.retryIn;
    if (wait > 0) {
      throw new UpstreamError(
        this.name,
        `${this.lastError ?? 'it failed'}; the next restart is tried in ${Math.ceil(wait / 1000)} s`,
      );
    }
    const { signal, onProgress } = options;
    const client = await this.connect({ urgent: true });
    signal?.throwIfAborted();
    const generation = this.#generation;
    try {
      const result = await client.request(
        {
          method: 'tools/call',
          params: { name: toolName, ...(args !== undefined && { arguments: args }) },
        },
        {
          timeout: this.#options.callTimeout,
          // The SDK sends the upstream notifications/cancelled when this aborts.
          ...(signal && { signal }),
          ...(onProgress && { onprogress: onProgress, resetTimeoutOnProgress: true }),
        },
      );
      this.#failures = 0;
      return result as CallToolResult;
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      // The caller cancelled: the upstream was told and is fine.
      if (signal?.aborted) throw signal.reason ?? error;
      // Thrown here, before anything was sent: arguments `JSON.stringify` cannot serialize (nested
      // thousands of levels deep). The upstream is fine; stopping it would punish every session.
      if (error instanceof RangeError)
        throw new UpstreamError(this.name, `${toolName} was not called: ${error.message}`);
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        this.#fail(
          `it did not answer ${toolName} within ${this.#options.callTimeout} ms, so it was stopped`,
          { backoff: false },
        );
        await this.#stop();
      } else if (generation === this.#generation && this.status === 'ready') {
        this.#fail(`${toolName} failed: ${describeError(error)}`, { backoff: false });
        await this.#stop();
      }
      throw new UpstreamError(this.name, this.lastError ?? this.#redact(describeError(error)));
    }
  }

  /** Stops the upstream (kills a stdio child). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#stop();
    this.status = 'idle';
  }

  async #open(): Promise<Client> {
    const generation = ++this.#generation;
    this.#transportError = undefined;
    this.status = 'connecting';
    const { clientInfo, connectTimeout, log } = this.#options;
    const client = new Client(clientInfo, { capabilities: {} });
    client.onerror = (error) => {
      this.#transportError = describeError(error);
      log(`${this.name}: ${this.#transportError}`);
    };
    client.onclose = () => this.#ended(generation);
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      if (generation === this.#generation) void this.refresh();
    });
    const transport = this.#createTransport();
    this.#transport = transport;
    this.#client = client;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`it did not start within ${connectTimeout} ms`)),
          connectTimeout,
        );
      });
      await Promise.race([client.connect(transport, { timeout: connectTimeout }), timeout]);
      const tools = await Promise.race([this.#listTools(client, connectTimeout), timeout]);
      if (generation !== this.#generation) throw new Error('it was stopped while starting');
      this.status = 'ready';
      this.lastError = undefined;
      log(`${this.name}: connected, ${tools.length} tool(s)`);
      this.#options.onTools(tools, this.#hints);
      return client;
    } catch (error) {
      if (generation === this.#generation) {
        // "Connection closed" alone hides why: the transport's own error says it (a message over
        // the SDK's stdio limit, a child that could not be spawned).
        const reason = describeError(error);
        this.#fail(
          this.#transportError && this.#transportError !== reason
            ? `${reason} (${this.#transportError})`
            : reason,
        );
        // Not awaited: a child that ignores its closed stdin takes seconds to be killed, and the
        // gateway's start must not wait for that.
        void this.#stop();
      }
      throw new UpstreamError(this.name, this.lastError ?? this.#redact(describeError(error)));
    } finally {
      clearTimeout(timer);
    }
  }

  #createTransport(): Transport {
    const config = this.config;
    if (isHttpUpstream(config)) {
      const requestInit = config.headers ? { headers: config.headers } : undefined;
      const url = new URL(config.url);
      return config.type === 'sse'
        ? new SSEClientTransport(url, requestInit ? { requestInit } : undefined)
        : new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : undefined);
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd !== undefined && { cwd: config.cwd }),
      // Piped and relabelled: an upstream's stderr is logged under its name, never mixed into stdout.
      stderr: 'pipe',
    });
    const stderr = transport.stderr as Readable | null;
    if (stderr) {
      createInterface({ input: stderr }).on('line', (line) =>
        this.#options.log(`${this.name} (stderr): ${line}`),
      );
    }
    return transport;
  }

  async #listTools(client: Client, timeout: number): Promise<Tool[]> {
    const { tools, rejected, truncated, hints } = await readToolList(client, { timeout });
    this.#hints = hints;
    // One unreadable tool costs only itself, and says so by name.
    for (const { name, reason } of rejected)
      this.#options.log(`${this.name}: tool "${name}" is left out: ${reason}`);
    if (truncated) {
      this.#options.log(
        `${this.name}: tools/list paged more than ${MAX_LIST_PAGES} times; the rest is ignored`,
      );
    }
    return tools;
  }

  #ended(generation: number): void {
    if (generation !== this.#generation) return;
    this.#client = undefined;
    this.#transport = undefined;
    if (this.status === 'ready') {
      this.#fail('it exited', { backoff: false });
      this.#options.log(
        `${this.name}: exited; it is restarted on the next call to one of its tools`,
      );
    }
  }

  /** Marks the upstream down; a failed start (`backoff`) also delays the next attempt. */
  #fail(reason: string, options: { backoff: boolean } = { backoff: true }): void {
    this.status = 'failed';
    this.lastError = this.#redact(reason);
    if (options.backoff) {
      this.#failures++;
      const { initial, max } = this.#options.restartBackoff;
      this.#retryAt = Date.now() + Math.min(initial * 2 ** (this.#failures - 1), max);
    } else {
      this.#retryAt = 0;
    }
    this.#options.log(`${this.name}: ${reason}`);
  }

  async #stop(): Promise<void> {
    this.#generation++;
    const client = this.#client;
    this.#client = undefined;
    this.#transport = undefined;
    await client?.close().catch(() => undefined);
  }
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
