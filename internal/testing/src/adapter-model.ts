/**
 * The reference model of the adapter property suites: per conversation, the tools it has loaded,
 * in load order. It follows what the meta-tool results report, after checking that each report
 * is one the policy allows (only allowed, known tools load; only loaded tools are evicted or
 * unloaded; the budget holds), and predicts the tools each step must offer. The engine's own
 * suite checks the results exactly; the adapter suites check what reaches the model and what runs.
 */
import { expect } from 'vitest';

export type Phase = 'search' | 'load' | 'active';

/** What the model knows of the adapter's configuration. */
export interface AdapterModelOptions {
  /** Pinned tool ids. */
  pinned: readonly string[];
  maxLoadedTools: number | undefined;
  /** Idle time before a stored thread expires; 0 or absent: never. */
  ttl?: number | undefined;
  /** Whether a filter is configured (without one every tool is allowed). */
  filter: boolean;
}

/** One load-like report: a `load_tool` output, or an autoLoad search's receipt. */
export interface LoadReport {
  loaded?: readonly string[] | undefined;
  alreadyLoaded?: readonly string[] | undefined;
  evicted?: readonly string[] | undefined;
}

export class AdapterModel {
  readonly options: AdapterModelOptions;
  /** `${phase}:${id}` → allowed; absent means allowed. */
  readonly policy = new Map<string, boolean>();
  /** Loaded tool ids by state key (a thread's id, or a conversation of its own). */
  readonly loaded = new Map<string, string[]>();
  readonly #accessedAt = new Map<string, number>();
  /**
   * Per state key, when each loaded tool was last reported loaded (a tick of {@link #ticks}): the
   * conversation's results make a tool "used" when one last loaded it, which orders the budget.
   */
  readonly #lastLoaded = new Map<string, Map<string, number>>();
  #ticks = 0;
  clock = 1_000_000;
  failing = false;

  constructor(options: AdapterModelOptions) {
    this.options = options;
  }

  allows(id: string, phase: Phase): boolean {
    return !this.options.filter || this.policy.get(`${phase}:${id}`) !== false;
  }

  list(key: string): string[] {
    let list = this.loaded.get(key);
    if (!list) {
      list = [];
      this.loaded.set(key, list);
    }
    return list;
  }

  /** A request of a stored thread reads it: past the ttl since its last access, it is gone. */
  access(key: string): void {
    const { ttl } = this.options;
    const last = this.#accessedAt.get(key);
    if (ttl && last !== undefined && this.clock - last > ttl) this.loaded.set(key, []);
    this.#accessedAt.set(key, this.clock);
  }

  /** Forgets every stored thread (a restart of a process-memory store). */
  forgetStored(keys: readonly string[]): void {
    for (const key of keys) this.loaded.set(key, []);
  }

  /**
   * The loaded tools a request reads from its state. A stored thread's list is what it is; a
   * list read from the conversation holds only tools this request knows and may load (a name it
   * does not know, or that the `load` filter denies now, was never loaded for it, so it takes no
   * place in the budget), and when tools left out earlier count again it can hold more than the
   * budget: the request keeps the most recently loaded ones, in load order.
   */
  #readable(key: string, known: ReadonlySet<string>, fromContext: boolean): string[] {
    const list = this.list(key).filter((id) => !this.options.pinned.includes(id));
    if (!fromContext) return list;
    const readable = list.filter((id) => known.has(id) && this.allows(id, 'load'));
    const max = this.options.maxLoadedTools;
    if (max === undefined || readable.length <= max) return readable;
    const lastLoaded = this.#lastLoaded.get(key);
    const kept = new Set(
      readable
        .map((id, position) => ({ id, position, at: lastLoaded?.get(id) ?? 0 }))
        .sort((left, right) => right.at - left.at || right.position - left.position)
        .slice(0, max)
        .map(({ id }) => id),
    );
    return readable.filter((id) => kept.has(id));
  }

  /**
   * The tools a step must offer besides the meta-tools: allowed pins, then loaded tools the
   * request knows that are allowed (from messages, also by the `load` phase: they may be forged).
   */
  expectedActive(
    key: string,
    options: { known: ReadonlySet<string>; fromContext: boolean; storeDown?: boolean },
  ): string[] {
    const pins = this.options.pinned.filter(
      (id) => options.known.has(id) && this.allows(id, 'active'),
    );
    const loaded = options.storeDown ? [] : this.#readable(key, options.known, options.fromContext);
    return [...pins, ...loaded.filter((id) => options.known.has(id) && this.allows(id, 'active'))];
  }

  /**
   * Checks a load report against the policy and the state, then applies it.
   * @param requested - the ids asked for (known tools only; unknown names cannot load)
   * @param fromContext - the state is read from the conversation, not a stored thread
   */
  applyLoad(
    key: string,
    report: LoadReport,
    requested: ReadonlySet<string>,
    known: ReadonlySet<string>,
    fromContext = false,
  ): void {
    const list = this.list(key);
    const before = [...list];
    const loaded = report.loaded ?? [];
    const already = report.alreadyLoaded ?? [];
    const evicted = report.evicted ?? [];
    for (const id of [...loaded, ...already]) {
      expect(requested.has(id), `reported loaded "${id}" was asked for`).toBe(true);
      expect(known.has(id) && this.allows(id, 'load'), `"${id}" may be loaded`).toBe(true);
    }
    // A tool evicted was loaded before, or loaded and evicted at once (more asked than fit).
    for (const id of evicted)
      expect(before.includes(id) || requested.has(id), `evicted "${id}" was loaded`).toBe(true);
    for (const id of loaded) {
      if (!list.includes(id) && !this.options.pinned.includes(id)) list.push(id);
    }
    for (const id of evicted) if (list.includes(id)) list.splice(list.indexOf(id), 1);
    let lastLoaded = this.#lastLoaded.get(key);
    if (!lastLoaded) {
      lastLoaded = new Map();
      this.#lastLoaded.set(key, lastLoaded);
    }
    this.#ticks++;
    for (const id of [...loaded, ...already])
      if (list.includes(id)) lastLoaded.set(id, this.#ticks);
    // The budget holds over what the request read: a tool it could not read took no place.
    if (this.options.maxLoadedTools !== undefined) {
      const counted = fromContext
        ? list.filter((id) => known.has(id) && this.allows(id, 'load'))
        : list;
      expect(counted.length).toBeLessThanOrEqual(this.options.maxLoadedTools);
    }
    // Every allowed tool asked for is loaded now, pinned, or reported evicted.
    for (const id of requested) {
      if (!known.has(id) || !this.allows(id, 'load')) continue;
      expect(
        list.includes(id) || this.options.pinned.includes(id) || evicted.includes(id),
        `allowed "${id}" ends up loaded`,
      ).toBe(true);
    }
  }

  /**
   * Whether `call_tool` under `expose: 'proxy'` runs a tool that was not active: one the request
   * knows and the filter allows to load and to be active is loaded by its call (a stored thread
   * whose store is down cannot load it).
   */
  runsByCall(
    id: string,
    options: { known: ReadonlySet<string>; fromContext: boolean; storeDown?: boolean },
  ): boolean {
    if (!options.known.has(id) || this.options.pinned.includes(id)) return false;
    if (!options.fromContext && options.storeDown) return false;
    return this.allows(id, 'load') && this.allows(id, 'active');
  }

  /**
   * Checks a stored thread's tools read back after `call_tool` loaded one by its call (a call's
   * answer is the tool's own, so it reports no evictions), then adopts them: the tool is loaded,
   * last; nothing else joined; the ones kept keep their order; the budget holds.
   */
  applyCallLoad(key: string, id: string, after: readonly string[]): void {
    const before = this.list(key).filter((loaded) => loaded !== id);
    expect(after.at(-1), `"${id}" is loaded by its call, last`).toBe(id);
    const kept = after.slice(0, -1);
    expect(
      kept.every((loaded) => before.includes(loaded)),
      'a call loads nothing else',
    ).toBe(true);
    expect(kept, 'the tools kept keep their order').toEqual(
      before.filter((loaded) => kept.includes(loaded)),
    );
    if (this.options.maxLoadedTools !== undefined)
      expect(after.length).toBeLessThanOrEqual(this.options.maxLoadedTools);
    this.loaded.set(key, [...after]);
    let lastLoaded = this.#lastLoaded.get(key);
    if (!lastLoaded) {
      lastLoaded = new Map();
      this.#lastLoaded.set(key, lastLoaded);
    }
    lastLoaded.set(id, ++this.#ticks);
  }

  /** Checks an unload report (only loaded tools leave) and applies it. */
  applyUnload(key: string, unloaded: readonly string[]): void {
    const list = this.list(key);
    for (const id of unloaded) {
      expect(list.includes(id), `unloaded "${id}" was loaded`).toBe(true);
      list.splice(list.indexOf(id), 1);
    }
  }
}
