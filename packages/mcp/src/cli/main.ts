import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { GatewayConfigError } from '../config/config-error';
import type { EmbeddingsConfig, ExposeMode, GatewayConfig } from '../config/gateway-config';
import { loadGatewayConfig } from '../config/parse-gateway-config';
import { createGatewayFromConfig } from '../gateway/create-gateway-from-config';
import { type GatewayStorage, openGatewayStorage } from '../gateway/gateway-storage';
import { isLoopbackHost, serveGatewayHttp } from '../gateway/serve-http';
import { serveGatewayStdio } from '../gateway/serve-stdio';
import { pinLocationOf } from '../pins/pin-location';
import { startGatewayTracing } from '../tracing/start-gateway-tracing';
import { createManifestCache, defaultCacheDir } from '../upstream/manifest-cache';
import { APPROVE_USAGE, runApprove } from './approve-command';
import { packageVersion } from './package-version';

/** The environment variable the HTTP bearer token is read from, unless `--token-env` names another. */
export const DEFAULT_TOKEN_ENV = 'TOOL_SEARCH_MCP_TOKEN';

/** What {@link main} reads and writes instead of the process's own streams, for embedding and tests. */
export interface MainContext {
  stdin?: Readable;
  stdout?: Writable;
  /** Logs, warnings and errors; never MCP messages. */
  stderr?: Writable;
  env?: NodeJS.ProcessEnv;
  /** Stops a running gateway (as SIGINT or SIGTERM do). */
  signal?: AbortSignal;
}

const USAGE = `Usage: tool-search-mcp --config FILE [options]
       ${APPROVE_USAGE}

Serves tool search (search_tools, load_tool) over the MCP servers of FILE, an "mcpServers" config.
A tool whose definition changed since it was first seen is quarantined; "approve" lists and approves.

Options:
  --config FILE          the config (required): { "mcpServers": {...}, "toolSearch": {...} }
  --cache DIR            where upstream tool lists are cached (default: $XDG_CACHE_HOME/tool-search-mcp
                         or ~/.cache/tool-search-mcp)
  --no-cache             start every upstream at once and keep no tool lists
  --expose proxy|tools   proxy (default): tools/list never changes, loaded tools run through
                         call_tool; tools: loaded tools join tools/list (list_changed)
  --port N               serve Streamable HTTP at http://127.0.0.1:N/mcp instead of stdio
  --host HOST            listen on HOST (beyond loopback needs a token)
  --token-env NAME       the variable holding the bearer token for HTTP (default: ${DEFAULT_TOKEN_ENV})
  --allow-origin HOST    also accept browser requests from this origin hostname (repeatable)
  --connect-timeout MS   per-upstream start timeout (default: 10000; the first start of a server
                         run by npx, uvx, docker run... gets at least 120000, for the download)
  --call-timeout MS      per-call timeout (default: 60000)
  --start-concurrency N  upstreams started at once (default: twice the cores, 2 to 16)
  --start-wait MS        how long a request waits for upstreams still starting before it is
                         answered from the others (default: 10000)
  --embeddings-url URL   semantic search with an OpenAI-compatible embeddings endpoint, e.g.
                         https://api.openai.com/v1 or http://localhost:11434/v1 (instead of the
                         config's "embeddings")
  --embeddings-model M   its model, e.g. text-embedding-3-small (required with --embeddings-url)
  --embeddings-key-env NAME  the environment variable holding its API key
  --no-embeddings        BM25F alone, whatever the config says
  --help, --version`;

/**
 * The `tool-search-mcp` command: loads the config, starts the gateway on stdio or HTTP, and
 * resolves with the exit code when the client disconnects (stdio) or the process is told to stop.
 * @param argv - the arguments after the program name
 * @param context - streams, environment and a stop signal instead of the process's
 * @returns the exit code: 0 after a clean stop, 1 for a bad config or start failure, 2 for bad arguments
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[], context: MainContext = {}): Promise<number> {
  const stderr = context.stderr ?? process.stderr;
  const stdout = context.stdout ?? process.stdout;
  const env = context.env ?? process.env;
  const log = (message: string) => stderr.write(`[tool-search-mcp] ${message}\n`);
  if (argv[0] === 'approve') return runApprove(argv.slice(1), { stdout, stderr, env });
  let values: ReturnType<typeof parse>;
  try {
    values = parse(argv);
  } catch (error) {
    stderr.write(`tool-search-mcp: ${cut((error as Error).message)}\n\n${USAGE}\n`);
    return 2;
  }
  // Asked-for output goes to stdout: no MCP session runs when these flags are given.
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const problem = checkArguments(values);
  if (problem) {
    stderr.write(`tool-search-mcp: ${cut(problem)}\n\n${USAGE}\n`);
    return 2;
  }
  let loaded: Awaited<ReturnType<typeof loadGatewayConfig>>;
  try {
    loaded = await loadGatewayConfig(values.config!, { env });
  } catch (error) {
    if (!(error instanceof GatewayConfigError)) throw error;
    stderr.write(`tool-search-mcp: invalid config: ${error.message}\n`);
    return 1;
  }
  for (const warning of loaded.warnings) log(`warning: ${warning}`);
  const embeddings = embeddingsOf(values, loaded.config.embeddings);
  if (typeof embeddings === 'string') {
    stderr.write(`tool-search-mcp: ${embeddings}\n\n${USAGE}\n`);
    return 2;
  }

  const host = values.host ?? '127.0.0.1';
  const tokenEnv = values['token-env'] ?? DEFAULT_TOKEN_ENV;
  // An own, non-empty string only: `--token-env __proto__` must not find Object.prototype.
  const fromEnv = Object.hasOwn(env, tokenEnv) ? env[tokenEnv] : undefined;
  const token = typeof fromEnv === 'string' && fromEnv !== '' ? fromEnv : undefined;
  if (values.port !== undefined && !isLoopbackHost(host) && !token) {
    stderr.write(
      `tool-search-mcp: listening on ${host} (beyond loopback) needs a bearer token in $${tokenEnv}\n`,
    );
    return 1;
  }

  let storage: GatewayStorage | undefined;
  if (loaded.config.storage) {
    try {
      storage = await openGatewayStorage(loaded.config.storage, { log });
    } catch (error) {
      stderr.write(`tool-search-mcp: ${(error as Error).message}\n`);
      return 1;
    }
  }

  const info = { name: 'tool-search-mcp', version: packageVersion() };
  const config: GatewayConfig = {
    mcpServers: loaded.config.mcpServers,
    ...(loaded.config.storage && { storage: loaded.config.storage }),
    ...(embeddings && { embeddings }),
    ...(loaded.config.definitionPins !== undefined && {
      definitionPins: loaded.config.definitionPins,
    }),
    toolSearch: {
      ...loaded.config.toolSearch,
      ...(values.expose !== undefined && { expose: values.expose as ExposeMode }),
    },
  };
  const cacheDir = values['no-cache'] ? false : (values.cache ?? defaultCacheDir(env));
  const sharedPins =
    storage && pinLocationOf(loaded.config, cacheDir).kind === 'redis' ? storage.pins : undefined;
  // Loaded only when the OTEL_* variables ask for traces.
  const tracing = await startGatewayTracing({
    env,
    recordContent: loaded.config.tracing?.recordContent,
    serviceVersion: packageVersion(),
    log,
  });
  let gateway: ReturnType<typeof createGatewayFromConfig>;
  try {
    gateway = createGatewayFromConfig(config, {
      cache: cacheDir === false ? false : createManifestCache(cacheDir),
      ...(values['connect-timeout'] !== undefined && {
        connectTimeout: Number(values['connect-timeout']),
      }),
      ...(values['call-timeout'] !== undefined && { callTimeout: Number(values['call-timeout']) }),
      ...(values['start-concurrency'] !== undefined && {
        startConcurrency: Number(values['start-concurrency']),
      }),
      ...(values['start-wait'] !== undefined && { startWait: Number(values['start-wait']) }),
      serverInfo: info,
      log,
      ...(storage && { storage: storage.store }),
      ...(sharedPins && { pins: sharedPins }),
      ...(tracing && { tracing }),
      env,
      file: values.config!,
    });
  } catch (error) {
    await tracing?.shutdown();
    await storage?.close();
    if (!(error instanceof GatewayConfigError)) throw error;
    stderr.write(`tool-search-mcp: invalid config: ${error.message}\n`);
    return 1;
  }
  const stopped = stopSignal(context.signal);
  try {
    if (values.port === undefined) {
      const { closed } = await serveGatewayStdio(gateway, {
        ...(context.stdin && { stdin: context.stdin }),
        ...(context.stdout && { stdout: context.stdout }),
      });
      await Promise.race([closed, stopped.promise]);
      return 0;
    }
    const http = await serveGatewayHttp(gateway, {
      port: Number(values.port),
      host,
      token,
      allowedOrigins: values['allow-origin'] ?? [],
    });
    log(`listening on ${http.url}${token ? ' (bearer token required)' : ''}`);
    await stopped.promise;
    await http.close();
    return 0;
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await gateway.close();
    await tracing?.shutdown();
    await storage?.close();
    // Only now: a signal during the stop above would otherwise end the gateway mid-stop.
    stopped.dispose();
  }
}

/**
 * An error line is cut to this length: messages quote the argument they refuse, and a megabyte
 * pasted by mistake should not flood the terminal.
 */
const MAX_ERROR_LINE = 1_000;

/** Cuts the middle out of a long line: its start names the argument, its end says what is wrong. */
function cut(line: string): string {
  if (line.length <= MAX_ERROR_LINE) return line;
  const half = Math.floor(MAX_ERROR_LINE / 2);
  return `${line.slice(0, half)} … ${line.slice(-half)}`;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      config: { type: 'string' },
      cache: { type: 'string' },
      'no-cache': { type: 'boolean' },
      expose: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'token-env': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'connect-timeout': { type: 'string' },
      'call-timeout': { type: 'string' },
      'start-concurrency': { type: 'string' },
      'start-wait': { type: 'string' },
      'embeddings-url': { type: 'string' },
      'embeddings-model': { type: 'string' },
      'embeddings-key-env': { type: 'string' },
      'no-embeddings': { type: 'boolean' },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
  }).values;
}

function checkArguments(values: ReturnType<typeof parse>): string | undefined {
  if (!values.config) return '--config FILE is required';
  if (values.expose !== undefined && values.expose !== 'tools' && values.expose !== 'proxy')
    return `--expose must be "tools" or "proxy", got "${values.expose}"`;
  if (values.port !== undefined && !isPort(values.port))
    return `--port must be an integer from 0 to 65535, got "${values.port}"`;
  if (values.host !== undefined && values.port === undefined) return '--host needs --port';
  for (const flag of ['connect-timeout', 'call-timeout'] as const) {
    const value = values[flag];
    if (value !== undefined && !(Number.isInteger(Number(value)) && Number(value) > 0))
      return `--${flag} must be a positive number of milliseconds, got "${value}"`;
  }
  const wait = values['start-wait'];
  if (wait !== undefined && !(/^\d+$/.test(wait) && Number.isSafeInteger(Number(wait))))
    return `--start-wait must be a number of milliseconds (0 or more), got "${wait}"`;
  const concurrency = values['start-concurrency'];
  if (
    concurrency !== undefined &&
    !(/^\d+$/.test(concurrency) && Number(concurrency) >= 1 && Number(concurrency) <= 1_000)
  )
    return `--start-concurrency must be an integer from 1 to 1000, got "${concurrency}"`;
  return undefined;
}

/**
 * The embeddings endpoint the flags and the config give, or what is wrong with the flags.
 * `--embeddings-url` names another endpoint, so nothing of the config's (its key above all)
 * carries over; `--embeddings-model` and `--embeddings-key-env` alone change the config's.
 */
function embeddingsOf(
  values: ReturnType<typeof parse>,
  configured: EmbeddingsConfig | undefined,
): EmbeddingsConfig | undefined | string {
  const url = values['embeddings-url'];
  const model = values['embeddings-model'];
  const keyEnv = values['embeddings-key-env'];
  if (values['no-embeddings']) {
    return url === undefined && model === undefined && keyEnv === undefined
      ? undefined
      : '--no-embeddings goes with no other --embeddings-* flag';
  }
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv))
    return `--embeddings-key-env must name an environment variable, got "${keyEnv}"`;
  if (model !== undefined && model.trim() === '') return '--embeddings-model must not be empty';
  if (url === undefined) {
    if (model === undefined && keyEnv === undefined) return configured;
    if (!configured)
      return '--embeddings-model and --embeddings-key-env need --embeddings-url (or "embeddings" in the config)';
    const { apiKey: _literalKey, ...rest } = configured;
    return {
      ...(keyEnv === undefined ? configured : rest),
      ...(model !== undefined && { model }),
      ...(keyEnv !== undefined && { apiKeyEnv: keyEnv }),
    };
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return `--embeddings-url is not a URL: "${url}"`;
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    return '--embeddings-url must be an http: or https: URL';
  if (model === undefined) return '--embeddings-url needs --embeddings-model';
  return { url, model, ...(keyEnv !== undefined && { apiKeyEnv: keyEnv }) };
}

function isPort(value: string): boolean {
  const port = Number(value);
  return /^\d+$/.test(value) && port >= 0 && port <= 65_535;
}

/**
 * Signals that stop the gateway: Ctrl-C, a service manager's stop, a closed terminal. The
 * upstreams run in process groups of their own, which these no longer reach, so the gateway
 * must stop them itself.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Resolves on SIGINT, SIGTERM, SIGHUP or the caller's abort signal. The listeners stay until
 * `dispose`: a second Ctrl-C while the upstreams are being stopped must not kill the gateway
 * before it has stopped them (the stop is bounded).
 */
function stopSignal(signal: AbortSignal | undefined): {
  promise: Promise<void>;
  dispose: () => void;
} {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  const stop = () => resolve();
  for (const name of STOP_SIGNALS) process.on(name, stop);
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  return {
    promise,
    dispose: () => {
      for (const name of STOP_SIGNALS) process.off(name, stop);
      signal?.removeEventListener('abort', stop);
    },
  };
}
