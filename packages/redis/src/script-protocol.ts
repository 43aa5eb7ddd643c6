/**
 * The store's side of the script's protocol (see `LOADED_TOOLS_SCRIPT`): the arguments a call
 * sends, checked before they leave, and the answers read back, checked before they are trusted.
 */
import type { LoadedToolEntry, LoadedToolsChange, LoadedToolsOperation } from 'tool-search-core';
import { RedisStoreError } from './redis-store-error';

/** The script's answer when it ran after its deadline and changed nothing. */
export const LATE = 'late';
/** Redis's `TIME` counts seconds and microseconds. */
const MICROSECONDS_PER_SECOND = 1_000_000;
/**
 * Tool ids one call may carry. The engine sends at most 50 (a `load_tool` call's limit); far more
 * is a bug or an attack, would hold Redis busy in the script, and is past what node-redis can
 * pass as arguments (it overflows the call stack near 100,000).
 */
const MAX_IDS_PER_CALL = 10_000;

/** Redis's `TIME`, as the `clock` call answers it, in microseconds. */
export function toMicroseconds(reply: unknown): number {
  const time = parseReply(reply);
  if (
    !Array.isArray(time) ||
    !Number.isSafeInteger(time[0]) ||
    !Number.isSafeInteger(time[1]) ||
    time[0] < 0
  )
    throw new RedisStoreError('bad-reply', 'Expected the Redis clock as [seconds, microseconds]');
  return time[0] * MICROSECONDS_PER_SECOND + time[1];
}

/**
 * An operation as script arguments: its name, then at, budget and ids (the store puts the ttl and
 * the deadline after the name).
 */
export function toArguments(operation: LoadedToolsOperation): string[] {
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
export function wellFormed(value: string, what: string): string {
  if (!(value as unknown as { isWellFormed(): boolean }).isWellFormed())
    throw new TypeError(
      `createRedisStore: the ${what} ${JSON.stringify(value)} is not well-formed Unicode (it has a lone surrogate); Redis would store it as a different string`,
    );
  return value;
}

/** The ids, or a `RangeError` when one call would carry more than the script should take. */
export function withinLimit<T>(ids: readonly T[]): readonly T[] {
  if (ids.length > MAX_IDS_PER_CALL)
    throw new RangeError(
      `createRedisStore: one call may carry at most ${MAX_IDS_PER_CALL} tool ids, got ${ids.length}`,
    );
  return ids;
}

/** A tool id as the script receives it, or a `TypeError` when Redis would store another. */
export function toolId(id: unknown): string {
  return wellFormed(String(id), 'tool id');
}

/** A time as the script receives it, or a `TypeError` for a time that is not a finite number. */
export function finite(value: number): string {
  if (!Number.isFinite(value))
    throw new TypeError(`createRedisStore: a time must be a finite number, got ${value}`);
  return String(value);
}

/** The script's JSON answer, or the error its `late` answer (or anything else) stands for. */
export function parseReply(reply: unknown): unknown {
  const text = typeof reply === 'string' ? reply : Buffer.isBuffer(reply) ? reply.toString() : '';
  if (text === LATE)
    throw new RedisStoreError(
      'timeout',
      'Redis reached the call after its deadline (a share of the timeout) and changed nothing',
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new RedisStoreError('bad-reply', 'Redis answered something that is not the script reply');
  }
}

/** A thread's stored pairs as entries, skipping any that are not `[id, usedAt]`. */
export function toEntries(pairs: unknown): LoadedToolEntry[] {
  if (!Array.isArray(pairs)) throw new RedisStoreError('bad-reply', 'Expected a list of tools');
  const entries: LoadedToolEntry[] = [];
  for (const pair of pairs) {
    if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'number')
      entries.push({ id: pair[0], usedAt: pair[1] });
  }
  return entries;
}

/** An `update`'s answer as a change, or a `bad-reply` error. */
export function toChange(lists: unknown): LoadedToolsChange {
  if (!Array.isArray(lists) || lists.length !== 4 || !lists.every(Array.isArray))
    throw new RedisStoreError('bad-reply', 'Expected four lists of tool ids');
  const [loaded, alreadyLoaded, evicted, unloaded] = lists as string[][];
  return { loaded: loaded!, alreadyLoaded: alreadyLoaded!, evicted: evicted!, unloaded: unloaded! };
}
