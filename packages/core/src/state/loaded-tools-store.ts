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
 * Where per-thread loaded-tool state lives. Implement it to keep state in a database or cache
 * shared by several server instances; `createMemoryStore()` is the in-process default.
 * A method that rejects is reported through `onError` and answered to the model; it never
 * loses the request.
 */
export interface LoadedToolsStore {
  /** The state of a thread, or `undefined` when it has none. */
  get(threadId: string): Promise<LoadedToolsState | undefined>;
  /** Replaces the state of a thread. */
  set(threadId: string, state: LoadedToolsState): Promise<void>;
  /** Forgets a thread. */
  delete(threadId: string): Promise<void>;
}
