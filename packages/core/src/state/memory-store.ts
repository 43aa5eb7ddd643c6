import { applyLoadedToolsOperation } from './apply-loaded-tools-operation';
import type { LoadedToolEntry, LoadedToolsState, LoadedToolsStore } from './loaded-tools-store';
import { sameEntries } from './same-entries';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Forget a thread after this many milliseconds without access; `0` keeps threads until
   * `maxThreads` pushes them out.
   * @default 3_600_000 (one hour)
   */
  ttl?: number;
  /**
   * Threads kept at most; past it the least recently used thread is dropped, so a server that
   * sees endless thread ids keeps bounded memory.
   * @default 10_000
   */
  maxThreads?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

/** Statistics of an in-memory store. */
export interface StateStats {
  threadCount: number;
  /** Last access of the least recently used thread, or `null` when there is none. */
  oldestAccessTime: number | null;
}

/**
 * The in-process store, with the inspection methods of Mastra's default store. Its `update`
 * applies operations with {@link applyLoadedToolsOperation}, atomically within the process.
 */
export interface MemoryStore extends Required<LoadedToolsStore> {
  /** Forgets one thread. */
  clearState(threadId: string): void;
  /** Forgets every thread. */
  clearAllState(): void;
  getStateStats(): StateStats;
  /** Drops threads idle for longer than the ttl now; returns how many. */
  cleanupNow(): number;
  /** Stops the cleanup timer. The store still works; expiry then happens on access. */
  dispose(): void;
}

/** Idle time before an in-memory thread is forgotten: one hour, as Mastra's default. */
export const DEFAULT_TTL = 60 * 60 * 1000;
/** Threads the in-memory store keeps at most: bounds memory when every request brings a new thread. */
export const DEFAULT_MAX_THREADS = 10_000;
/**
 * The sweep runs every ttl, but no more often than once a minute and no less than every ten
 * minutes: expired threads are already invisible to `get`, the sweep only frees their memory
 * (which `maxThreads` bounds anyway), and `cleanupNow()` sweeps on demand.
 */
const MIN_SWEEP_INTERVAL = 60_000;
const MAX_SWEEP_INTERVAL = 10 * 60_000;

interface Slot {
  tools: LoadedToolEntry[];
  accessedAt: number;
}

/**
 * Creates the in-process loaded-tools store: TTL expiry, a cap on threads, and a cleanup timer that
 * is unref'd (it never keeps a process alive) and stopped by `dispose()`.
 *
 * @param options - ttl, thread cap and clock
 * @example
 * const store = createMemoryStore({ ttl: 30 * 60_000 });
 * const engine = createToolSearchEngine({ tools, describe, storage: store });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const ttl = options.ttl ?? DEFAULT_TTL;
  const maxThreads = options.maxThreads ?? DEFAULT_MAX_THREADS;
  const now = options.now ?? Date.now;
  if (!(ttl >= 0 && Number.isFinite(ttl)))
    throw new RangeError(`createMemoryStore: ttl must be >= 0 ms, got ${ttl}`);
  if (!(maxThreads >= 1))
    throw new RangeError(`createMemoryStore: maxThreads must be >= 1, got ${maxThreads}`);
  // Map iteration order is insertion order; re-inserting on access keeps the least recent first.
  const threads = new Map<string, Slot>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const isExpired = (slot: Slot, at: number): boolean => ttl > 0 && at - slot.accessedAt > ttl;

  const cleanupNow = (): number => {
    const at = now();
    let cleaned = 0;
    for (const [threadId, slot] of threads) {
      if (!isExpired(slot, at)) continue;
      threads.delete(threadId);
      cleaned++;
    }
    return cleaned;
  };

  const startTimer = (): void => {
    if (timer || ttl === 0) return;
    timer = setInterval(
      cleanupNow,
      Math.min(MAX_SWEEP_INTERVAL, Math.max(MIN_SWEEP_INTERVAL, ttl)),
    );
    timer.unref?.();
  };

  const touch = (threadId: string, slot: Slot): void => {
    slot.accessedAt = now();
    threads.delete(threadId);
    threads.set(threadId, slot);
  };

  const liveSlot = (threadId: string): Slot | undefined => {
    const slot = threads.get(threadId);
    if (slot && isExpired(slot, now())) {
      threads.delete(threadId);
      return undefined;
    }
    return slot;
  };

  const write = (threadId: string, tools: LoadedToolEntry[]): void => {
    touch(threadId, { tools, accessedAt: 0 });
    while (threads.size > maxThreads) {
      const oldest = threads.keys().next().value;
      if (oldest === undefined) break;
      threads.delete(oldest);
    }
    startTimer();
  };

  return {
    async get(threadId) {
      const slot = liveSlot(threadId);
      if (!slot) return undefined;
      touch(threadId, slot);
      return { tools: slot.tools.map((entry) => ({ ...entry })) } satisfies LoadedToolsState;
    },
    async set(threadId, state) {
      write(
        threadId,
        state.tools.map((entry) => ({ ...entry })),
      );
    },
    async update(threadId, operation) {
      // The same steps as a get and a set, with nothing in between: no other update can interleave.
      const slot = liveSlot(threadId);
      const tools = slot?.tools.map((entry) => ({ ...entry })) ?? [];
      const change = applyLoadedToolsOperation(tools, operation);
      // A change that changes nothing writes nothing: it makes no thread (so requests that only
      // unload or touch what they never loaded cannot push real threads out past `maxThreads`),
      // and a thread it finds only counts as read, as `get` does.
      if (sameEntries(tools, slot?.tools ?? [])) {
        if (slot) touch(threadId, slot);
      } else {
        write(threadId, tools);
      }
      return change;
    },
    async delete(threadId) {
      threads.delete(threadId);
    },
    clearState(threadId) {
      threads.delete(threadId);
    },
    clearAllState() {
      threads.clear();
    },
    getStateStats() {
      let oldestAccessTime: number | null = null;
      for (const slot of threads.values()) {
        if (oldestAccessTime === null || slot.accessedAt < oldestAccessTime)
          oldestAccessTime = slot.accessedAt;
      }
      return { threadCount: threads.size, oldestAccessTime };
    },
    cleanupNow,
    dispose() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
