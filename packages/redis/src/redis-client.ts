/**
 * The part of an ioredis client (`Redis` or `Cluster`, ioredis 5 or 6) the store uses. Declared
 * here so this package never imports ioredis.
 */
export interface IoRedisClient {
  eval(
    script: string,
    numberOfKeys: number,
    ...keysAndArguments: (string | number)[]
  ): Promise<unknown>;
  evalsha(
    sha1: string,
    numberOfKeys: number,
    ...keysAndArguments: (string | number)[]
  ): Promise<unknown>;
  /** ioredis's connection status; `reconnecting`, `close` and `end` mean "not connected". */
  readonly status: string;
}

/** The part of a node-redis client (`redis` 5: `createClient()` or `createCluster()`) the store uses. */
export interface NodeRedisClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** Connected and not reconnecting (a node-redis cluster has no such flag: the timeout covers it). */
  readonly isReady?: boolean;
}

/** A Redis client the store accepts: ioredis or node-redis. */
export type RedisClient = IoRedisClient | NodeRedisClient;

/** Runs the store's script through either client, and tells whether it is connected. */
export interface ScriptRunner {
  /** `EVALSHA`, falling back to `EVAL` when Redis does not have the script cached. */
  run(key: string, args: string[]): Promise<unknown>;
  /** `false` when the client knows it is disconnected, so a command would only queue. */
  isConnected(): boolean;
}

/** ioredis statuses in which a command waits in the offline queue for a connection that is gone. */
const DISCONNECTED_STATUSES = new Set(['reconnecting', 'close', 'end']);

/**
 * Adapts a client to a {@link ScriptRunner}: node-redis is recognized by its `evalSha` method,
 * ioredis by `evalsha`.
 */
export function toScriptRunner(client: RedisClient, script: string, sha: string): ScriptRunner {
  if (isNodeRedis(client)) {
    return {
      run: (key, args) =>
        withScriptFallback(
          () => client.evalSha(sha, { keys: [key], arguments: args }),
          () => client.eval(script, { keys: [key], arguments: args }),
        ),
      isConnected: () => client.isReady !== false,
    };
  }
  if (typeof client?.evalsha === 'function' && typeof client.eval === 'function') {
    return {
      run: (key, args) =>
        withScriptFallback(
          () => client.evalsha(sha, 1, key, ...args),
          () => client.eval(script, 1, key, ...args),
        ),
      isConnected: () => !DISCONNECTED_STATUSES.has(client.status),
    };
  }
  throw new TypeError(
    'createRedisStore: `client` must be an ioredis client (new Redis()) or a node-redis client (createClient())',
  );
}

function isNodeRedis(client: RedisClient): client is NodeRedisClient {
  return typeof (client as Partial<NodeRedisClient>)?.evalSha === 'function';
}

async function withScriptFallback(
  evalsha: () => Promise<unknown>,
  evaluate: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await evalsha();
  } catch (error) {
    // Redis answers NOSCRIPT after a restart or SCRIPT FLUSH; EVAL runs and caches the script again.
    if (!String((error as { message?: unknown })?.message).startsWith('NOSCRIPT')) throw error;
    return evaluate();
  }
}
