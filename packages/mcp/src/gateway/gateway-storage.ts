import type { LoadedToolsStore } from 'tool-search-core';
import type { StorageConfig } from '../config/gateway-config';
import type { PinStore } from '../pins/pin-store';
import { createRedisPinStore } from '../pins/redis-pin-store';

/** A loaded-tools store opened from the config's `storage`, and how to let go of it. */
export interface GatewayStorage {
  /** The store to hand the gateway (`createGatewayFromConfig(config, { storage: store })`). */
  store: LoadedToolsStore;
  /**
   * Upstream tool definitions pinned on the same Redis, under the same key prefix, so every
   * instance shares pins and approvals (`createGatewayFromConfig(config, { pins })`).
   */
  pins: PinStore;
  /** Closes the store's connection (after the gateway has closed). */
  close(): Promise<void>;
}

/** Options of {@link openGatewayStorage}. */
export interface OpenGatewayStorageOptions {
  /**
   * Receives log lines (the connection's state and errors).
   * @default writes to stderr
   */
  log?: (message: string) => void;
  /** Loads a module by name; tests replace it to see what happens when a package is missing. */
  importModule?: (name: string) => Promise<unknown>;
}

/** How long `close()` waits for Redis to acknowledge QUIT before it drops the connection. */
const QUIT_TIMEOUT = 1_000;

/** The optional packages the Redis storage needs, as the error message names them. */
const REDIS_PACKAGES = 'ioredis and tool-search-redis';

/**
 * Opens the store a config's `storage` names: for `"type": "redis"`, an ioredis client with
 * `recommendedIoRedisOptions` and `createRedisStore` from `tool-search-redis` (both optional peer
 * dependencies, loaded only here). Several gateway instances given the same Redis (and key
 * prefix) keep each session's loaded tools under its MCP session id there.
 * @param config - the config's `storage` object
 * @param options - log
 * @throws {Error} when `ioredis` or `tool-search-redis` is not installed
 * @example
 * const { config } = await loadGatewayConfig('gateway.json');
 * const storage = config.storage ? await openGatewayStorage(config.storage) : undefined;
 * const gateway = createGatewayFromConfig(config, { ...(storage && { storage: storage.store }) });
 */
export async function openGatewayStorage(
  config: StorageConfig,
  options: OpenGatewayStorageOptions = {},
): Promise<GatewayStorage> {
  const log =
    options.log ?? ((message: string) => process.stderr.write(`[tool-search-mcp] ${message}\n`));
  const load = options.importModule ?? ((name: string) => import(name));
  let ioredis: typeof import('ioredis');
  let redisStore: typeof import('tool-search-redis');
  try {
    [ioredis, redisStore] = (await Promise.all([load('ioredis'), load('tool-search-redis')])) as [
      typeof import('ioredis'),
      typeof import('tool-search-redis'),
    ];
  } catch (error) {
    throw new Error(
      `"storage": { "type": "redis" } needs the packages ${REDIS_PACKAGES} beside tool-search-mcp ` +
        `(npm install ioredis tool-search-redis): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const where = describeServer(config.url);
  const client = new ioredis.Redis(config.url, redisStore.recommendedIoRedisOptions);
  // ioredis reconnects by itself and emits an error per attempt: log each distinct one once.
  let lastError: string | undefined;
  client.on('error', (error: Error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    log(`storage: Redis at ${where}: ${error.message}`);
  });
  client.on('ready', () => {
    lastError = undefined;
    log(`storage: Redis at ${where} is ready`);
  });
  const store = redisStore.createRedisStore({
    client,
    ...(config.keyPrefix !== undefined && { keyPrefix: config.keyPrefix }),
    ...(config.ttl !== undefined && { ttl: config.ttl }),
    ...(config.timeout !== undefined && { timeout: config.timeout }),
    // Redis applied a change in time whose answer came too late: the session was told it failed.
    onLateChange: ({ threadId, operation }) =>
      log(
        `storage: a ${operation.type} that had timed out was applied by Redis after all (session ${threadId.slice(0, 8)}…)`,
      ),
  });
  return {
    store,
    pins: createRedisPinStore({
      client,
      ...(config.keyPrefix !== undefined && { keyPrefix: config.keyPrefix }),
      where,
    }),
    async close() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, QUIT_TIMEOUT);
      });
      // QUIT lets Redis finish what it was sent; a Redis that is down never answers it.
      await Promise.race([client.quit().catch(() => undefined), timedOut]);
      clearTimeout(timer);
      client.disconnect();
    },
  };
}

/** The server's host and port, without the credentials a URL may carry. */
function describeServer(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}
