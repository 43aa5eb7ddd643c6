import type { LoadedToolsStore } from 'tool-search-core';
import type { GatewayConfig } from '../config/gateway-config';
import { definitionPinsOf } from '../pins/definition-pins-of';
import type { PinStore } from '../pins/pin-store';
import type { GatewayTracing } from '../tracing/traced-tool-calls';
import {
  createManifestCache,
  defaultCacheDir,
  type ManifestCache,
} from '../upstream/manifest-cache';
import { createUpstreamManager, type UpstreamManagerOptions } from '../upstream/upstream-manager';
import { createEmbedFromConfig } from './embeddings-from-config';
import {
  createToolSearchGateway,
  type ToolSearchGateway,
  type ToolSearchGatewayOptions,
} from './tool-search-gateway';

/** Options of {@link createGatewayFromConfig}. */
export interface CreateGatewayFromConfigOptions
  extends Pick<
      UpstreamManagerOptions,
      'connectTimeout' | 'callTimeout' | 'restartBackoff' | 'startConcurrency'
    >,
    Pick<ToolSearchGatewayOptions, 'startWait'> {
  /**
   * The manifest cache, or `false` for none (every upstream starts with the gateway).
   * @default a cache in {@link defaultCacheDir}()
   */
  cache?: ManifestCache | false;
  /**
   * The name and version the gateway gives MCP clients and upstreams.
   * @default { name: 'tool-search-mcp', version: '0.0.0' }
   */
  serverInfo?: { name: string; version: string };
  /**
   * Receives log lines.
   * @default writes to stderr
   */
  log?: (message: string) => void;
  /**
   * The loaded-tools store. Required when the config has `storage`: open it with
   * `openGatewayStorage(config.storage)` (asynchronous, as it loads the Redis client) and close it
   * after the gateway.
   * @default a memory store
   */
  storage?: LoadedToolsStore;
  /**
   * Where the config's `embeddings.apiKeyEnv` is looked up, and the environment stdio upstreams
   * inherit from (the variables `upstreamEnvironment` passes, and each entry's `inheritEnv`).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Names the config in errors (`gateway.json: $.embeddings.apiKeyEnv: ...`), and in the
   * `approve` command the log gives for a quarantined tool.
   * @default 'config'
   */
  file?: string;
  /**
   * Where upstream tool definitions are pinned, or `false` for nowhere (nothing is quarantined).
   * With `storage`, pass `openGatewayStorage`'s `pins`, so every instance shares them.
   * @default as the config says: `definitionPins.file`, else `pins.json` in the cache folder
   *   (memory with `cache: false`); nothing with `definitionPins: false`
   */
  pins?: PinStore | false;
  /** Traces `tools/call` as OpenTelemetry spans (`startGatewayTracing` makes one from `OTEL_*`). */
  tracing?: GatewayTracing;
}

/**
 * Builds a gateway from a config object (the parsed `mcpServers` / `toolSearch` / `embeddings`
 * JSON): its upstream manager, manifest cache and MCP face. Serve it with `serveGatewayStdio`,
 * `serveGatewayHttp` or `gateway.connect(transport)`.
 * @param config - a config, e.g. from `loadGatewayConfig` or `parseGatewayConfig`
 * @param options - cache, timeouts, backoff, server info, log, the loaded-tools store, the
 *   environment the embeddings' API key is read from
 * @throws {GatewayConfigError} when `embeddings.apiKeyEnv` names a variable that is not set
 * @example
 * const gateway = createGatewayFromConfig({
 *   mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
 *   toolSearch: { topK: 5 },
 * });
 * await serveGatewayStdio(gateway);
 */
export function createGatewayFromConfig(
  config: GatewayConfig,
  options: CreateGatewayFromConfigOptions = {},
): ToolSearchGateway {
  const {
    cache = createManifestCache(defaultCacheDir()),
    serverInfo,
    log,
    storage,
    env,
    file,
    startWait,
    pins,
    tracing,
    ...timing
  } = options;
  if (config.storage && !storage) {
    // Silently keeping loads in memory would break the sharing the config asks for.
    throw new TypeError(
      'createGatewayFromConfig: the config has "storage"; open it with openGatewayStorage(config.storage) and pass its store as options.storage',
    );
  }
  // Before anything starts: a missing API key is a config error, not a surprise at the first search.
  const embeddings =
    config.embeddings &&
    createEmbedFromConfig(config.embeddings, {
      ...(env && { env }),
      ...(file !== undefined && { file }),
    });
  const definitionPins = definitionPinsOf(config, {
    pins,
    cacheDir: cache === false ? false : cache.dir,
    file,
    env,
    log,
  });
  const upstreams = createUpstreamManager({
    servers: config.mcpServers,
    cache: cache === false ? undefined : cache,
    ...timing,
    ...(serverInfo && { clientInfo: serverInfo }),
    ...(log && { log }),
    ...(definitionPins && { definitionPins }),
    ...(env && { env }),
  });
  return createToolSearchGateway({
    upstreams,
    toolSearch: config.toolSearch,
    ...(storage && { storage }),
    ...(serverInfo && { serverInfo }),
    ...(log && { log }),
    ...(embeddings && { embed: embeddings.embed, fusion: embeddings.fusion }),
    ...(startWait !== undefined && { startWait }),
    ...(tracing && { tracing }),
  });
}
