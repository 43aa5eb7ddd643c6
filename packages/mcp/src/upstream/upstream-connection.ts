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
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isHttpUpstream, type UpstreamConfig } from '../config/gateway-config';
import { variableRedactor } from '../config/variable-values';
import type { ListCacheHints } from './list-cache-hints';
import { type ProcessExit, ProcessGroupTransport } from './process-group-transport';
import { MAX_LIST_PAGES, readToolList } from './read-tool-list';
import { createRedactor } from './redact-secrets';
import type { StartLimiter } from './start-limiter';
import { startTimeoutOf } from './start-timeout';
import { StderrTail } from './stderr-tail';
import { upstreamEnvironment } from './upstream-environment';

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
  /**
   * The gateway's environment, which a stdio upstream inherits from (see `upstreamEnvironment`).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv | undefined;
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
  /** Whether a start has ever succeeded: a package runner's first start may download. */
  #everReady = false;
  /** What the current stdio child said and how it ended: the cause of a failed start. */
  #run: ChildRun | undefined;
  /** Stops under way (one not awaited where it began): `close()` waits for every one. */
  readonly #stopping = new Set<Promise<void>>();
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
    if (transport instanceof ProcessGroupTransport) return transport.pid;
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
    // A stop begun elsewhere (after a failed start) may still be ending a process group.
    while (this.#stopping.size > 0) await Promise.all(this.#stopping);
    this.status = 'idle';
  }

  async #open(): Promise<Client> {
    const generation = ++this.#generation;
    this.#transportError = undefined;
    this.status = 'connecting';
    const { clientInfo, log } = this.#options;
    const connectTimeout = startTimeoutOf(this.config, {
      connectTimeout: this.#options.connectTimeout,
      firstStart: !this.#everReady,
    });
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
      this.#everReady = true;
      this.lastError = undefined;
      log(`${this.name}: connected, ${tools.length} tool(s)`);
      this.#options.onTools(tools, this.#hints);
      return client;
    } catch (error) {
      if (generation === this.#generation) {
        // "Connection closed" alone hides why: the transport's own error says it (a message over
        // the SDK's stdio limit, a child that could not be spawned).
        const reason = describeError(error);
        // A write to a child that has exited (EPIPE) is the exit's effect, not a cause of its own:
        // how the process ended says more, and which of the two is seen first is a race.
        const exitExplains =
          reason === 'Connection closed' &&
          this.#run?.exit !== undefined &&
          /\bEPIPE\b/.test(this.#transportError ?? '');
        const detailed =
          this.#transportError && this.#transportError !== reason && !exitExplains
            ? `${reason} (${this.#transportError})`
            : reason;
        this.#fail(this.#withCause(detailed));
        // Not awaited: a child that ignores its closed stdin takes seconds to be killed, and the
        // gateway's start must not wait for that (`close()` does).
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
    const environment = upstreamEnvironment(config, this.#options.env ?? process.env);
    // A config variable's value becomes its `${NAME}` first (it says which one); what is left of
    // a secret-named variable's value (one inherited, one written in the file) becomes `***`.
    const mask = createRedactor(environment);
    const redact = (text: string) => mask(this.#redact(text));
    const stderr = new StderrTail((line) =>
      this.#options.log(`${this.name} (stderr): ${redact(line)}`),
    );
    // One per child: a late event of an earlier child changes only its own record.
    const run: ChildRun = { stderr, redact, exit: undefined };
    this.#run = run;
    const spawnOptions = {
      command: config.command,
      args: config.args ?? [],
      env: environment,
      ...(config.cwd !== undefined && { cwd: config.cwd }),
    };
    if (process.platform !== 'win32') {
      return new ProcessGroupTransport({
        ...spawnOptions,
        // Relabelled: an upstream's stderr is logged under its name, never mixed into stdout.
        onStderr: (chunk) => stderr.push(chunk),
        onExit: (exit) => {
          run.exit = exit;
          stderr.end();
        },
      });
    }
    // Windows has no process groups to signal; the SDK's transport also finds `npx.cmd`.
    const transport = new StdioClientTransport({ ...spawnOptions, stderr: 'pipe' });
    const stream = transport.stderr as Readable | null;
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => stderr.push(chunk));
    return transport;
  }

  /**
   * A failure's reason with what the server itself said: how it exited and the last lines of
   * its stderr (secrets masked), so "Connection closed" names its cause.
   * @param during - what the upstream was doing: `starting`, or `running` (it exited after a good start)
   */
  #withCause(reason: string, during: 'starting' | 'running' = 'starting'): string {
    const run = this.#run;
    const exit = run?.exit;
    const how =
      exit === undefined
        ? undefined
        : exit.signal !== null
          ? `it was ended by ${exit.signal}`
          : `it exited with code ${exit.code}`;
    const said = run?.stderr.summary(run.redact);
    // "Connection closed" says only that the pipe closed; how the process ended says why.
    const what =
      how === undefined
        ? reason
        : reason === 'Connection closed' || during === 'running'
          ? `${how}${during === 'starting' ? ' while starting' : ''}`
          : `${reason}; ${how}`;
    return said === undefined ? what : `${what}; its stderr ends: ${said}`;
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
      this.#fail(this.#withCause('it exited', 'running'), { backoff: false });
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

  #stop(): Promise<void> {
    this.#generation++;
    const client = this.#client;
    this.#client = undefined;
    this.#transport = undefined;
    if (!client) return Promise.resolve();
    const stopping = client.close().catch(() => undefined);
    this.#stopping.add(stopping);
    void stopping.finally(() => this.#stopping.delete(stopping));
    return stopping;
  }
}

/** One stdio child's stderr and exit, and how to mask its secrets in them. */
interface ChildRun {
  stderr: StderrTail;
  redact: (text: string) => string;
  exit: ProcessExit | undefined;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
