/** One loaded tool in a thread's state. */
export interface LoadedToolEntry {
  /** The tool's id. */
  id: string;
  /** When the tool was last loaded or called (ms since epoch); the budget evicts the oldest. */
  usedAt: number;
}

/** The loaded-tool state of one thread. */
export interface LoadedToolsState {
  /** Loaded tools in load order, which is the order they are appended to the model's tools. */
  tools: LoadedToolEntry[];
}

/**
 * A change to one thread's loaded tools, described as data so a store can apply it where the
 * state lives (a Redis server runs it as a Lua script) instead of in the process that asked.
 * {@link applyLoadedToolsOperation} is the reference semantics every store must reproduce.
 *
 * - `load`: append each id not yet loaded, in order, and mark every id as used at `at` (or at the
 *   thread's latest use, when that is later: processes' clocks differ); then, while more than
 *   `maxLoadedTools` remain, evict the least recently used (the earliest loaded among equals).
 * - `unload`: remove these ids.
 * - `touch`: mark a loaded id as used at `at`, or at the thread's latest use when that is later
 *   (a no-op when it is not loaded).
 */
export type LoadedToolsOperation =
  | {
      type: 'load';
      ids: readonly string[];
      /** The time of the load, in ms since epoch. */
      at: number;
      /** The thread's budget; absent means unlimited. */
      maxLoadedTools?: number | undefined;
    }
  | { type: 'unload'; ids: readonly string[] }
  | { type: 'touch'; id: string; at: number };

/** What an operation did. Lists that do not apply to the operation are empty. */
export interface LoadedToolsChange {
  /** Ids the load added that are still loaded once the budget has evicted. */
  loaded: string[];
  /** Ids the load found already loaded (and refreshed) that are still loaded. */
  alreadyLoaded: string[];
  /** Ids the budget evicted, oldest first. */
  evicted: string[];
  /** Ids the unload removed, in load order. */
  unloaded: string[];
}

/**
 * Where per-thread loaded-tool state lives. Implement it to keep state in a database or cache
 * shared by several server instances; `createMemoryStore()` is the in-process default.
 *
 * What a store must guarantee:
 * - `get` returns a state that some `set` or `update` left whole (never a torn write), or
 *   `undefined`; ids keep their order.
 * - Without `update`, the engine changes a thread by `get`, a change, then `set`, one at a time
 *   per thread *in this process only*: two processes that change one thread at the same moment
 *   can lose one of the changes (the last `set` wins). Fine for a single server.
 * - With `update`, the engine sends every change through it instead, and `update` must apply the
 *   operation atomically against every other `update` of the same thread, from any process, with
 *   the result {@link applyLoadedToolsOperation} gives on the thread's current state. That is what
 *   makes a store safe for many server instances.
 * - A change that leaves a thread as it was writes nothing: no thread is made for an unload or
 *   touch of tools a thread never loaded (the engine skips such a `set` itself), so requests
 *   that load nothing cannot fill a store's room for threads. The memory and Redis stores count
 *   it as a read of a thread they hold (it stays recent, its expiry restarts).
 *
 * A method that rejects is reported through `onError` and answered to the model; it never
 * loses the request. A store should give up on its backend after a bounded time and reject,
 * since the agent's step waits for it.
 */
export interface LoadedToolsStore {
  /** The state of a thread, or `undefined` when it has none. */
  get(threadId: string): Promise<LoadedToolsState | undefined>;
  /** Replaces the state of a thread. */
  set(threadId: string, state: LoadedToolsState): Promise<void>;
  /** Forgets a thread. */
  delete(threadId: string): Promise<void>;
  /**
   * Applies one operation to a thread atomically and reports what it did; the engine prefers it
   * to `get` + `set` when present. A thread without state starts empty.
   */
  update?(threadId: string, operation: LoadedToolsOperation): Promise<LoadedToolsChange>;
}
