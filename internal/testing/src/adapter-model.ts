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
    const loaded = options.storeDown ? [] : this.list(key);
    return [
      ...pins,
      ...loaded.filter(
        (id) =>
          options.known.has(id) &&
          !this.options.pinned.includes(id) &&
          (!options.fromContext || this.allows(id, 'load')) &&
          this.allows(id, 'active'),
      ),
    ];
  }

  /**
   * Checks a load report against the policy and the state, then applies it.
   * @param requested - the ids asked for (known tools only; unknown names cannot load)
   */
  applyLoad(
    key: string,
    report: LoadReport,
    requested: ReadonlySet<string>,
    known: ReadonlySet<string>,
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
    if (this.options.maxLoadedTools !== undefined)
      expect(list.length).toBeLessThanOrEqual(this.options.maxLoadedTools);
    // Every allowed tool asked for is loaded now, pinned, or reported evicted.
    for (const id of requested) {
      if (!known.has(id) || !this.allows(id, 'load')) continue;
      expect(
        list.includes(id) || this.options.pinned.includes(id) || evicted.includes(id),
        `allowed "${id}" ends up loaded`,
      ).toBe(true);
    }
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
