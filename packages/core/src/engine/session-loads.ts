import { applyLoadedToolsOperation } from '../state/apply-loaded-tools-operation';
import { type DerivedTool, deriveLoadedTools, type ToolResultRecord } from '../state/context-state';
import type {
  LoadedToolEntry,
  LoadedToolsChange,
  LoadedToolsOperation,
  LoadedToolsStore,
} from '../state/loaded-tools-store';
import { sameEntries } from '../state/same-entries';
import { StoreError } from '../state/store-error';
import { runExclusive } from './exclusive';

/** What one session's loaded tools are read and written through. */
export interface SessionLoadsHost {
  readonly threadId: string | undefined;
  /** The engine's store, or `undefined` under `storage: 'context'`. */
  readonly store: LoadedToolsStore | undefined;
  /** Pinned tool ids: active anyway, so never entries. */
  readonly pinned: readonly string[];
  /** The id a static or request-resolved tool's name stands for, else the name itself. */
  resolveName(name: string): string;
  /** The id a name stands for, deferred tools included (once fetched). */
  idOf(name: string): string | undefined;
  /** Fetches the deferred tools that names may stand for. */
  prepareDeferred(names: Iterable<string>): Promise<void>;
  /** Whether the `load` phase of the filter allows a tool. */
  allowsLoad(name: string): Promise<boolean>;
  /** Reports a store failure (answered gracefully). */
  reportError(operation: string, error: unknown): void;
}

/**
 * @internal One session's loaded tools: in the engine's store when the session has a thread and
 * the engine a store, else derived from the conversation's tool results plus the session's own
 * loads. Every change is one operation, applied atomically by a store with `update`, or as a
 * read-modify-write under this process's per-thread lock.
 */
export class SessionLoads {
  readonly #host: SessionLoadsHost;
  /** Tools the conversation's tool results leave loaded (by id), derived once per `setToolResults`. */
  #derived: DerivedTool[];
  /** Names the request's own earlier results loaded: they passed the `load` filter then. */
  readonly #trusted: ReadonlySet<string>;
  /** Loads made in this session that its tool results do not show yet (no store, or no thread). */
  #ownEntries: LoadedToolEntry[] = [];
  /** Under 'context': names the conversation loaded but this session unloaded or evicted. */
  readonly #removed = new Set<string>();
  readonly #lockKey: object = {};

  /**
   * @param host - the session's view of its engine and request
   * @param init - the conversation's tool results, and the request's own (trusted) ones
   */
  constructor(
    host: SessionLoadsHost,
    init: {
      toolResults?: Iterable<ToolResultRecord> | undefined;
      requestResults?: Iterable<ToolResultRecord> | undefined;
    },
  ) {
    this.#host = host;
    const own = [...(init.requestResults ?? [])];
    this.#derived = this.#derive([...(init.toolResults ?? []), ...own]);
    this.#trusted = new Set(this.#derive(own).map((tool) => tool.name));
  }

  /** Replaces the conversation's tool results. */
  setToolResults(results: Iterable<ToolResultRecord>): void {
    this.#derived = this.#derive(results);
  }

  /** Whether the request's own earlier results loaded this id (no `load` check needed again). */
  isTrusted(id: string): boolean {
    return this.#trusted.has(id);
  }

  /** Whether the state lives in the store (a thread id and a store), not in the messages. */
  get usesStore(): boolean {
    return this.#host.store !== undefined && this.#host.threadId !== undefined;
  }

  /**
   * Applies an operation. A store with `update` applies it where the state lives (safe across
   * processes); otherwise it runs as a read-modify-write under the per-thread lock. A store
   * failure is reported and rethrown as a {@link StoreError}.
   */
  async apply(operation: LoadedToolsOperation): Promise<LoadedToolsChange> {
    const { store, threadId } = this.#host;
    if (store?.update && threadId !== undefined) {
      let change: LoadedToolsChange;
      try {
        change = await store.update(threadId, operation);
      } catch (error) {
        this.#host.reportError('store.update', error);
        throw new StoreError(error);
      }
      return {
        loaded: stringList(change?.loaded),
        alreadyLoaded: stringList(change?.alreadyLoaded),
        evicted: stringList(change?.evicted),
        unloaded: stringList(change?.unloaded),
      };
    }
    return this.update((entries) => applyLoadedToolsOperation(entries, operation));
  }

  /** Runs a read-modify-write of the state, one at a time per thread. */
  update<TResult>(
    change: (entries: LoadedToolEntry[]) => TResult | Promise<TResult>,
  ): Promise<TResult> {
    const key = this.usesStore ? `thread:${this.#host.threadId}` : this.#lockKey;
    return runExclusive(key, async () => {
      const entries = await this.read({ throwOnError: true });
      const before = this.usesStore ? entries.map((entry) => ({ ...entry })) : undefined;
      const result = await change(entries);
      // A change that changes nothing is not written: a `set` would make a thread for it.
      if (before === undefined || !sameEntries(before, entries)) await this.#write(entries);
      return result;
    });
  }

  /** Loaded entries in load order. A failing store reads as empty (and is reported). */
  async read(options: { throwOnError?: boolean } = {}): Promise<LoadedToolEntry[]> {
    const { store, threadId } = this.#host;
    if (store && threadId !== undefined) {
      try {
        const state = await store.get(threadId);
        return Array.isArray(state?.tools)
          ? state.tools
              .filter((entry) => typeof entry?.id === 'string')
              .map((entry) => ({ ...entry }))
          : [];
      } catch (error) {
        this.#host.reportError('store.get', error);
        if (options.throwOnError) throw new StoreError(error);
        return [];
      }
    }
    // Under 'context', and for a request without a thread: this request's messages plus its own
    // loads. A derived tool counts as used when a result last loaded it. Messages can be forged:
    // a name this request does not know or may not load was never loaded, so it takes no place in
    // the budget (it would evict a real load, or push one out of `activeTools`).
    const derived = this.#derived.filter((tool) => !this.#removed.has(tool.name));
    // A name no static or request-resolved tool answers may be a deferred tool's.
    await this.#host.prepareDeferred(derived.map((tool) => tool.name)).catch(() => undefined);
    const loadable = await Promise.all(
      derived.map(
        async (tool) =>
          this.#host.idOf(tool.name) !== undefined &&
          (this.#trusted.has(tool.name) || (await this.#host.allowsLoad(tool.name))),
      ),
    );
    const entries: LoadedToolEntry[] = derived
      .filter((_, position) => loadable[position])
      .map((tool) => ({ id: tool.name, usedAt: tool.lastLoadedAt }));
    const seen = new Set(this.#derived.map((tool) => tool.name));
    for (const entry of this.#ownEntries) if (!seen.has(entry.id)) entries.push({ ...entry });
    return entries;
  }

  /** Marks a loaded tool as just used, for the `maxLoadedTools` eviction order. */
  async touch(id: string): Promise<void> {
    try {
      await this.apply({ type: 'touch', id, at: Date.now() });
    } catch {
      // Recency is a hint for eviction; a store failure here is already reported.
    }
  }

  /**
   * The tools the results leave loaded, by id, in first-load order; a result may name a tool by
   * its key. Pinned tools are active anyway: as entries they would only take room in the budget.
   */
  #derive(results: Iterable<ToolResultRecord>): DerivedTool[] {
    const pinned = new Set(this.#host.pinned);
    return deriveLoadedTools(results, (name) => this.#host.resolveName(name)).filter(
      (tool) => !pinned.has(tool.name),
    );
  }

  async #write(entries: LoadedToolEntry[]): Promise<void> {
    const { store, threadId } = this.#host;
    if (store && threadId !== undefined) {
      try {
        await store.set(threadId, { tools: entries });
      } catch (error) {
        this.#host.reportError('store.set', error);
        throw new StoreError(error);
      }
      return;
    }
    const derived = new Set(this.#derived.map((tool) => tool.name));
    const kept = new Set(entries.map((entry) => entry.id));
    for (const id of derived) if (!kept.has(id)) this.#removed.add(id);
    for (const id of kept) this.#removed.delete(id);
    this.#ownEntries = entries.filter((entry) => !derived.has(entry.id));
  }
}

/** Keeps the most recently used `max` entries, in load order. */
export function withinBudget(
  entries: LoadedToolEntry[],
  max: number | undefined,
): LoadedToolEntry[] {
  if (max === undefined || entries.length <= max) return entries;
  const keep = new Set(
    entries
      .map((entry, position) => ({ entry, position }))
      .sort(
        (left, right) => right.entry.usedAt - left.entry.usedAt || right.position - left.position,
      )
      .slice(0, max)
      .map(({ entry }) => entry),
  );
  return entries.filter((entry) => keep.has(entry));
}

/** The strings of a list a store returned; anything else reads as empty. */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}
