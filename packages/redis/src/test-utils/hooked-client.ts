/**
 * A real client with a hand in its traffic: the tests stall a call on its way to Redis (as a
 * busy Redis, a stalled network or a client queue would) or its answer on the way back, at the
 * exact point a fault needs, and wait until every call has come back.
 */
import type { IoRedisClient, NodeRedisClient, RedisClient } from '../redis-client';

/** What the store's script was asked (its ARGV) and what it answered. */
export interface ScriptCall {
  args: readonly string[];
  answer: unknown;
}

/** Hooks around each script call; both may take their time (that is the stall). */
export interface CallHooks {
  /** Runs before the call goes out. */
  beforeSend?(args: readonly string[]): Promise<void> | void;
  /** Runs when the answer is back, before the store sees it. */
  beforeAnswer?(args: readonly string[]): Promise<void> | void;
}

/** The hooked client, what its script calls answered, and a wait for the calls in flight. */
export interface HookedClient {
  client: RedisClient;
  /** Every call that came back, in the order the answers did. */
  readonly answered: ScriptCall[];
  /** Resolves once no call is in flight (hooks included). */
  idle(): Promise<void>;
}

/** Wraps an ioredis or node-redis client; `hooks` may change between calls. */
export function hookedClient(inner: RedisClient, hooks: CallHooks): HookedClient {
  const answered: ScriptCall[] = [];
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const track = async (args: readonly string[], send: () => Promise<unknown>) => {
    inFlight++;
    try {
      await hooks.beforeSend?.(args);
      const answer = await send();
      await hooks.beforeAnswer?.(args);
      answered.push({ args, answer });
      return answer;
    } finally {
      inFlight--;
      if (inFlight === 0) {
        for (const wake of waiters) wake();
        waiters = [];
      }
    }
  };
  let client: RedisClient;
  if ('evalSha' in inner) {
    const nodeRedis = inner as NodeRedisClient;
    client = {
      // node-redis's cluster has no such flag, which the store reads as ready.
      get isReady() {
        return nodeRedis.isReady !== false;
      },
      evalSha: (sha, options) => track(options.arguments, () => nodeRedis.evalSha(sha, options)),
      eval: (script, options) => track(options.arguments, () => nodeRedis.eval(script, options)),
    } satisfies NodeRedisClient;
  } else {
    const ioredis = inner as IoRedisClient;
    client = {
      get status() {
        return ioredis.status;
      },
      evalsha: (sha, keys, ...rest) =>
        track(rest.slice(keys).map(String), () => ioredis.evalsha(sha, keys, ...rest)),
      eval: (script, keys, ...rest) =>
        track(rest.slice(keys).map(String), () => ioredis.eval(script, keys, ...rest)),
    } satisfies IoRedisClient;
  }
  return {
    client,
    answered,
    idle: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((wake) => waiters.push(wake)),
  };
}
