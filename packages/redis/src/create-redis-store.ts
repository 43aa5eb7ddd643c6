import {
  DEFAULT_TTL,
  type LoadedToolEntry,
  type LoadedToolsChange,
  type LoadedToolsOperation,
  type LoadedToolsState,
  type LoadedToolsStore,
} from 'tool-search-core';
import { LOADED_TOOLS_SCRIPT, LOADED_TOOLS_SCRIPT_SHA } from './loaded-tools-script';
import { type RedisClient, toScriptRunner } from './redis-client';
import { RedisStoreError } from './redis-store-error';

/** The options of {@link createRedisStore} that are plain data, so they can come from a JSON config. */
export interface RedisStoreConfig {
  /**
   * Put before every key, to separate applications (or environments) sharing one Redis. It may
   * not contain `{` or `}`: the braces around the thread id are the key's Cluster hash tag.
   * @default 'tool-search:'
   */
  keyPrefix?: string;
  /**
   * Idle time in ms before Redis expires a thread's loaded tools; every read or change of the
   * thread restarts it. `0` keeps threads until they are cleared.
   * @default 3_600_000 (one hour)
   */
  ttl?: number;
  /**
   * How long one Redis call may take, in ms. Past it the call fails: the step goes on without the
   * thread's loaded tools and `load_tool` answers that it could not load.
   * @default 1_000
   */
  timeout?: number;
}

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions extends RedisStoreConfig {
  /** A connected ioredis (`new Redis()`, `new Cluster()`) or node-redis (`createClient()`) client. */
  client: RedisClient;
}

/** A loaded-tools store on Redis. Every method is one atomic Lua script call. */
export interface RedisStore extends Required<LoadedToolsStore> {
  /** The Redis key that holds a thread's loaded tools. */
  keyOf(threadId: string): string;
}

/** The default key prefix. */
export const DEFAULT_KEY_PREFIX = 'tool-search:';
/** Idle time before Redis forgets a thread: the in-memory store's (one hour). */
export const DEFAULT_REDIS_TTL = DEFAULT_TTL;
/**
 * Time one Redis call may take. Redis answers in about a millisecond; a second means it is
 * down or overloaded, and the agent's step waits for this call.
 */
export const DEFAULT_REDIS_TIMEOUT = 1_000;
/**
 * Tool ids one call may carry. The engine sends at most 50 (a `load_tool` call's limit); far more
 * is a bug or an attack, would hold Redis busy in the script, and is past what node-redis can
 * pass as arguments (it overflows the call stack near 100,000).
 */
const MAX_IDS_PER_CALL = 10_000;

/**
 * Creates a loaded-tools store on Redis for servers that run many instances: every change to a
 * thread (load within the budget, unload, touch) runs as one Lua script on the Redis server, so
 * concurrent requests from any number of processes never lose each other's loads. A thread's key
 * expires after `ttl` of idleness. The store never throws into the agent's loop: a call that
 * fails or takes longer than `timeout` rejects, and the engine answers the model and emits
 * `onError`. The store does not own the client: close it yourself.
 *
 * @param options - the client, key prefix, ttl and timeout
 * @example
 * import { Redis } from 'ioredis';
 * const redis = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
 * const engine = createToolSearchEngine({ tools, describe, storage: createRedisStore({ client: redis }) });
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  if (!options || typeof options !== 'object')
    throw new TypeError('createRedisStore: options are required');
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const ttl = options.ttl ?? DEFAULT_REDIS_TTL;
  const timeout = options.timeout ?? DEFAULT_REDIS_TIMEOUT;
  if (typeof keyPrefix !== 'string' || /[{}]/.test(keyPrefix))
    throw new TypeError(
      `createRedisStore: keyPrefix must be a string without { or }, got ${JSON.stringify(keyPrefix)}`,
    );
  if (!(Number.isSafeInteger(ttl) && ttl >= 0))
    throw new RangeError(`createRedisStore: ttl must be an integer >= 0 ms, got ${ttl}`);
  if (!(Number.isFinite(timeout) && timeout > 0))
    throw new RangeError(`createRedisStore: timeout must be > 0 ms, got ${timeout}`);
  const runner = toScriptRunner(options.client, LOADED_TOOLS_SCRIPT, LOADED_TOOLS_SCRIPT_SHA);
  const ttlArgument = String(ttl);

  const keyOf = (threadId: string): string => {
    if (typeof threadId !== 'string' || threadId === '')
      throw new TypeError('createRedisStore: a thread id must be a non-empty string');
    return `${keyPrefix}{${wellFormed(threadId, 'thread id')}}:tools`;
  };

  const call = async (threadId: string, args: string[]): Promise<unknown> => {
    const key = keyOf(threadId);
    if (!runner.isConnected())
      throw new RedisStoreError('not-connected', 'Redis is not connected; the call was not sent');
    const reply = runner.run(key, [args[0]!, ttlArgument, ...args.slice(1)]);
    // A reply that comes after the timeout is dropped; its failure was already reported as one.
    reply.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RedisStoreError('timeout', `Redis did not answer within ${timeout} ms`)),
        timeout,
      );
    });
    try {
      return parseReply(await Promise.race([reply, expired]));
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    keyOf,
    async get(threadId) {
      const pairs = await call(threadId, ['get']);
      const tools = toEntries(pairs);
      return tools.length > 0 ? ({ tools } satisfies LoadedToolsState) : undefined;
    },
    async set(threadId, state) {
      // The engine never calls set on a store with update; it serves direct use and migrations.
      const tools = Array.isArray(state?.tools) ? state.tools : [];
      const pairs = withinLimit(tools).flatMap((entry) => [toolId(entry.id), finite(entry.usedAt)]);
      await call(threadId, ['set', '0', '0', ...pairs]);
    },
    async delete(threadId) {
      await call(threadId, ['delete']);
    },
    async update(threadId, operation) {
      return toChange(await call(threadId, toArguments(operation)));
    },
  };
}

function toArguments(operation: LoadedToolsOperation): string[] {
  switch (operation?.type) {
    case 'load':
      return [
        'load',
        finite(operation.at),
        String(operation.maxLoadedTools ?? 0),
        ...withinLimit(operation.ids).map(toolId),
      ];
    case 'unload':
      return ['unload', '0', '0', ...withinLimit(operation.ids).map(toolId)];
    case 'touch':
      return ['touch', finite(operation.at), '0', toolId(operation.id)];
    default:
      throw new TypeError(
        `createRedisStore: unknown operation ${JSON.stringify((operation as { type?: unknown })?.type)}`,
      );
  }
}

/**
 * Redis keeps keys and values as UTF-8 bytes, where a lone surrogate becomes U+FFFD: two thread
 * ids (or tool ids) that differ only there would become one. Such ids are refused instead.
 */
function wellFormed(value: string, what: string): string {
  if (!(value as unknown as { isWellFormed(): boolean }).isWellFormed())
    throw new TypeError(
      `createRedisStore: the ${what} ${JSON.stringify(value)} is not well-formed Unicode (it has a lone surrogate); Redis would store it as a different string`,
    );
  return value;
}

function withinLimit<T>(ids: readonly T[]): readonly T[] {
  if (ids.length > MAX_IDS_PER_CALL)
    throw new RangeError(
      `createRedisStore: one call may carry at most ${MAX_IDS_PER_CALL} tool ids, got ${ids.length}`,
    );
  return ids;
}

function toolId(id: unknown): string {
  return wellFormed(String(id), 'tool id');
}

function finite(value: number): string {
  if (!Number.isFinite(value))
    throw new TypeError(`createRedisStore: a time must be a finite number, got ${value}`);
  return String(value);
}

function parseReply(reply: unknown): unknown {
  const text = typeof reply === 'string' ? reply : Buffer.isBuffer(reply) ? reply.toString() : '';
  try {
    return JSON.parse(text);
  } catch {
    throw new RedisStoreError('bad-reply', 'Redis answered something that is not the script reply');
  }
}

function toEntries(pairs: unknown): LoadedToolEntry[] {
  if (!Array.isArray(pairs)) throw new RedisStoreError('bad-reply', 'Expected a list of tools');
  const entries: LoadedToolEntry[] = [];
  for (const pair of pairs) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number')
      entries.push({ id: pair[0], usedAt: pair[1] });
  }
  return entries;
}

function toChange(lists: unknown): LoadedToolsChange {
  if (!Array.isArray(lists) || lists.length !== 4 || !lists.every(Array.isArray))
    throw new RedisStoreError('bad-reply', 'Expected four lists of tool ids');
  const [loaded, alreadyLoaded, evicted, unloaded] = lists as string[][];
  return { loaded: loaded!, alreadyLoaded: alreadyLoaded!, evicted: evicted!, unloaded: unloaded! };
}
