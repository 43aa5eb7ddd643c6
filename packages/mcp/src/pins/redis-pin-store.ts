import type { HeldEntry, PinChange, PinnedEntry, PinRecord, PinStore } from './pin-store';
import { PinStoreError, pinKey } from './pin-store';

/** The part of an ioredis client the pin store uses. */
export interface PinRedisClient {
  eval(
    script: string,
    numberOfKeys: number,
    ...keysAndArguments: (string | number)[]
  ): Promise<unknown>;
}

/** Options of {@link createRedisPinStore}. */
export interface RedisPinStoreOptions {
  client: PinRedisClient;
  /**
   * Put before every key: the same prefix as the loaded-tools store's, so one `keyPrefix`
   * separates one gateway's everything from another's.
   * @default 'tool-search:'
   */
  keyPrefix?: string;
  /**
   * How long one Redis call may take, in ms, before it counts as failed.
   * @default 5_000
   */
  timeout?: number;
  /** Names the Redis server in messages (host and port, no credentials). */
  where?: string;
}

/** Longer than the loaded-tools store's second: a load reads every pin at once. */
const DEFAULT_TIMEOUT = 5_000;

/**
 * Keys, in this order. They share the hash tag `{pins}`, so one script may touch them all on a
 * Redis Cluster. Definitions are kept as the JSON strings the gateway wrote (Lua never decodes
 * them, so nothing in them is re-encoded): pinned entries, their hashes, held entries, their
 * hashes, held definitions alone (what an approval pins), and a counter bumped on every change.
 */
const KEY_NAMES = ['pinned', 'pinned-hash', 'held', 'held-hash', 'held-definition', 'version'];

/** Applies `ARGV` = kind, field, hash, value per change; answers 1 or 0 per change. */
const UPDATE_SCRIPT = `
local applied = {}
local any = false
for i = 1, #ARGV, 4 do
  local kind, field, hash, value = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local done = 0
  if kind == 'pin' then
    if redis.call('HEXISTS', KEYS[2], field) == 0 then
      redis.call('HSET', KEYS[1], field, value)
      redis.call('HSET', KEYS[2], field, hash)
      done = 1
    end
  elseif kind == 'hold' then
    local separator = string.find(value, '\\n', 1, true)
    redis.call('HSET', KEYS[3], field, string.sub(value, 1, separator - 1))
    redis.call('HSET', KEYS[5], field, string.sub(value, separator + 1))
    redis.call('HSET', KEYS[4], field, hash)
    done = 1
  elseif redis.call('HGET', KEYS[4], field) == hash then
    if kind == 'approve' then
      local definition = redis.call('HGET', KEYS[5], field)
      redis.call('HSET', KEYS[1], field, '{"hash":"' .. hash .. '","at":"' .. value .. '","definition":' .. definition .. '}')
      redis.call('HSET', KEYS[2], field, hash)
    end
    redis.call('HDEL', KEYS[3], field)
    redis.call('HDEL', KEYS[4], field)
    redis.call('HDEL', KEYS[5], field)
    done = 1
  end
  applied[#applied + 1] = done
  if done == 1 then any = true end
end
if any then redis.call('INCR', KEYS[6]) end
return applied
`;

/** Everything at once, so a load never sees half of a change. */
const LOAD_SCRIPT = `
return { redis.call('GET', KEYS[6]) or '0', redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[3]) }
`;

/**
 * Pins on Redis, shared by every gateway instance given the same Redis and key prefix: the
 * first instance to see a tool pins it (later ones compare with that pin), and an approval
 * made once is seen by all. Each change is one Lua script, applied atomically on the server.
 * @param options - an ioredis client, the key prefix and timeout
 * @example
 * const store = createRedisPinStore({ client: new Redis(url), keyPrefix: 'gateway:prod:' });
 */
export function createRedisPinStore(options: RedisPinStoreOptions): PinStore {
  const { client, keyPrefix = 'tool-search:', timeout = DEFAULT_TIMEOUT } = options;
  const keys = KEY_NAMES.map((name) => `${keyPrefix}{pins}:${name}`);
  const where = `Redis${options.where ? ` at ${options.where}` : ''}, keys ${keyPrefix}{pins}:*`;
  const run = async (script: string, args: string[]): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeout} ms`)), timeout);
    });
    try {
      return await Promise.race([client.eval(script, keys.length, ...keys, ...args), timedOut]);
    } catch (error) {
      throw new PinStoreError(
        `the pins in ${where} cannot be reached (${(error as Error).message})`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    location: where,
    async version() {
      const [version] = (await run(LOAD_VERSION_SCRIPT, [])) as [string];
      return version;
    },
    async load() {
      const [, pinned, held] = (await run(LOAD_SCRIPT, [])) as [string, string[], string[]];
      const records = new Map<string, PinRecord>();
      const recordOf = (field: string): PinRecord => {
        let record = records.get(field);
        if (!record) {
          const [server, tool] = parseField(field, where);
          record = { server, tool };
          records.set(field, record);
        }
        return record;
      };
      for (let index = 0; index < pinned.length; index += 2)
        recordOf(pinned[index]!).pinned = parseEntry<PinnedEntry>(pinned[index + 1]!, where);
      for (let index = 0; index < held.length; index += 2)
        recordOf(held[index]!).held = parseEntry<HeldEntry>(held[index + 1]!, where);
      return [...records.values()];
    },
    async update(changes) {
      if (changes.length === 0) return [];
      const applied = (await run(UPDATE_SCRIPT, changes.flatMap(toArguments))) as number[];
      return applied.map((done) => done === 1);
    },
  };
}

/** The version counter alone: what the gateway polls. */
const LOAD_VERSION_SCRIPT = `return { redis.call('GET', KEYS[6]) or '0' }`;

function toArguments(change: PinChange): string[] {
  const field = pinKey(change.server, change.tool);
  switch (change.type) {
    case 'pin':
      return ['pin', field, change.entry.hash, JSON.stringify(change.entry)];
    case 'hold':
      // The held entry and its definition alone, on two lines: JSON.stringify writes no newline.
      return [
        'hold',
        field,
        change.entry.hash,
        `${JSON.stringify(change.entry)}\n${JSON.stringify(change.entry.definition)}`,
      ];
    case 'release':
      return ['release', field, change.hash, ''];
    case 'approve':
      return ['approve', field, change.hash, new Date().toISOString()];
  }
}

function parseField(field: string, where: string): [string, string] {
  const value = parseJson(field, where);
  if (!Array.isArray(value) || typeof value[0] !== 'string' || typeof value[1] !== 'string')
    throw new PinStoreError(`the pins in ${where} are damaged: a field is not [server, tool]`);
  return [value[0], value[1]];
}

function parseEntry<T>(text: string, where: string): T {
  const value = parseJson(text, where) as { hash?: unknown; definition?: { name?: unknown } };
  if (typeof value?.hash !== 'string' || typeof value.definition?.name !== 'string')
    throw new PinStoreError(`the pins in ${where} are damaged: an entry has no hash or definition`);
  return value as T;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new PinStoreError(`the pins in ${where} are damaged: a value is not JSON`);
  }
}
