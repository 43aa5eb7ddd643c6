import {
  DEFAULT_TTL,
  type LoadedToolsChange,
  type LoadedToolsOperation,
  type LoadedToolsState,
  type LoadedToolsStore,
} from 'tool-search-core';
import { LOADED_TOOLS_SCRIPT, LOADED_TOOLS_SCRIPT_SHA } from './loaded-tools-script';
import { type RedisClient, toScriptRunner } from './redis-client';
import { RedisStoreError } from './redis-store-error';
import {
  finite,
  LATE,
  parseReply,
  toArguments,
  toChange,
  toEntries,
  toMicroseconds,
  toolId,
  wellFormed,
  withinLimit,
} from './script-protocol';

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
   * thread's loaded tools and `load_tool` answers that it could not load. A change (load, unload,
   * touch, set, delete) carries a deadline that Redis checks on its own clock, so one that reaches
   * Redis too late changes nothing.
   * @default 1_000
   */
  timeout?: number;
}

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions extends RedisStoreConfig {
  /** A connected ioredis (`new Redis()`, `new Cluster()`) or node-redis (`createClient()`) client. */
  client: RedisClient;
  /**
   * Called when a change whose call already failed with a timeout turns out to have been applied:
   * Redis ran it before its deadline, but its answer came back after `timeout` (the network, or
   * Redis, stalled between the two). Rare; log it, or hand it to the engine's `onError`. A change
   * that Redis reaches after its deadline is never applied, so it is never reported here.
   */
  onLateChange?: ((event: RedisLateChange) => void) | undefined;
}

/** A change the store had reported as timed out, which Redis had applied in time after all. */
export interface RedisLateChange {
  threadId: string;
  /** What the call asked for: an `update` operation, or a `set` or `delete` of the thread. */
  operation: LoadedToolsOperation | { type: 'set'; state: LoadedToolsState } | { type: 'delete' };
  /** What an `update` did, as its answer would have said; `undefined` for `set` and `delete`. */
  change: LoadedToolsChange | undefined;
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
 * The share of `timeout` within which Redis must start a change: the last tenth is left for the
 * answer's way back, so that a change Redis makes just in time is not answered just too late.
 */
const DEADLINE_SHARE = 0.9;
/** `performance.now()` counts milliseconds; the deadline is in Redis's microseconds. */
const MICROSECONDS_PER_MS = 1_000;
/** The deadline argument of a read: it changes nothing, so it may run whenever Redis gets to it. */
const NO_DEADLINE = '0';

/**
 * Creates a loaded-tools store on Redis for servers that run many instances: every change to a
 * thread (load within the budget, unload, touch) runs as one Lua script on the Redis server, so
 * concurrent requests from any number of processes never lose each other's loads. A thread's key
 * expires after `ttl` of idleness. The store never throws into the agent's loop: a call that
 * fails or takes longer than `timeout` rejects, and the engine answers the model and emits
 * `onError`. A change that timed out does not take effect later: Redis refuses it past its
 * deadline (or, if Redis ran it in time and only its answer was late, `onLateChange` says so).
 * The store does not own the client: close it yourself.
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
  if (options.onLateChange !== undefined && typeof options.onLateChange !== 'function')
    throw new TypeError('createRedisStore: onLateChange must be a function');
  const runner = toScriptRunner(options.client, LOADED_TOOLS_SCRIPT, LOADED_TOOLS_SCRIPT_SHA);
  const ttlArgument = String(ttl);

  const keyOf = (threadId: string): string => {
    if (typeof threadId !== 'string' || threadId === '')
      throw new TypeError('createRedisStore: a thread id must be a non-empty string');
    return `${keyPrefix}{${wellFormed(threadId, 'thread id')}}:tools`;
  };

  /**
   * A change carries a deadline on Redis's own clock, which the script checks before it changes
   * anything: first a `clock` call reads Redis's time, then the change goes out with the part of
   * the timeout that is left, added to that time. Only durations measured on this process's
   * monotonic clock cross over, so the two clocks may be any distance apart. Resolves to `LATE`
   * when no time is left to send it.
   */
  const sendChange = async (key: string, args: string[], started: number): Promise<unknown> => {
    const now = toMicroseconds(await runner.run(key, ['clock']));
    const left = started + timeout * DEADLINE_SHARE - performance.now();
    if (!(left > 0)) return LATE;
    if (!runner.isConnected())
      throw new RedisStoreError('not-connected', 'Redis is not connected; the change was not sent');
    const deadline = String(now + Math.floor(left * MICROSECONDS_PER_MS));
    return runner.run(key, [args[0]!, ttlArgument, deadline, ...args.slice(1)]);
  };

  /** Sends a call, raced against `timeout`; a change (with its `operation`) carries a deadline. */
  const call = async (
    threadId: string,
    args: string[],
    operation?: RedisLateChange['operation'],
  ): Promise<unknown> => {
    const key = keyOf(threadId);
    if (!runner.isConnected())
      throw new RedisStoreError('not-connected', 'Redis is not connected; the call was not sent');
    const started = performance.now();
    const reply =
      operation === undefined
        ? runner.run(key, [args[0]!, ttlArgument, NO_DEADLINE, ...args.slice(1)])
        : sendChange(key, args, started);
    let timedOut = false;
    reply.then(
      (answer) => {
        if (timedOut && operation !== undefined) reportLate(threadId, operation, answer);
      },
      // A failure after the timeout was already reported as the timeout.
      () => {},
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new RedisStoreError('timeout', `Redis did not answer within ${timeout} ms`));
      }, timeout);
    });
    try {
      return parseReply(await Promise.race([reply, expired]));
    } finally {
      clearTimeout(timer);
    }
  };

  const reportLate = (
    threadId: string,
    operation: RedisLateChange['operation'],
    answer: unknown,
  ): void => {
    const onLateChange = options.onLateChange;
    if (!onLateChange) return;
    let change: LoadedToolsChange | undefined;
    try {
      const parsed = parseReply(answer);
      change =
        operation.type === 'set' || operation.type === 'delete' ? undefined : toChange(parsed);
    } catch {
      // Refused as late (nothing changed), or not the script's answer (nothing to report).
      return;
    }
    try {
      onLateChange({ threadId, operation, change });
    } catch {
      // A handler that throws must not turn into an unhandled rejection.
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
      await call(threadId, ['set', '0', '0', ...pairs], { type: 'set', state });
    },
    async delete(threadId) {
      await call(threadId, ['delete'], { type: 'delete' });
    },
    async update(threadId, operation) {
      return toChange(await call(threadId, toArguments(operation), operation));
    },
  };
}
