/**
 * The commands every adapter's property suite shares besides its own step command: a filter
 * verdict changes, time passes, the store fails or recovers. Each acts on the `AdapterModel` and on
 * the suite's world the same way, whatever the framework.
 */
import type fc from 'fast-check';
import { vi } from 'vitest';
import type { AdapterModel, Phase } from './adapter-model';

/** What these commands read of a suite's configuration. */
export interface AdapterCommandConfig {
  filter: boolean;
  storage: string;
}

/** The model of a suite: the adapter model and the configuration it was made with. */
export type ConfiguredModel = AdapterModel & { config: AdapterCommandConfig };

/** What these commands change in a suite's world. */
export interface AdapterCommandWorld {
  /** Verdicts of the world's filter by `phase:id`; an id not listed is allowed. */
  readonly policy: Map<string, 'deny' | 'throw'>;
  /** Whether the world's store fails every call. */
  failing: boolean;
}

/** The filter's verdict for one tool in one phase changes (only when a filter is configured). */
export class PolicyCommand implements fc.AsyncCommand<ConfiguredModel, AdapterCommandWorld> {
  constructor(
    readonly id: string,
    readonly phase: Phase,
    readonly verdict: 'allow' | 'deny' | 'throw',
  ) {}
  check = (model: Readonly<ConfiguredModel>) => model.config.filter;
  async run(model: ConfiguredModel, world: AdapterCommandWorld) {
    const key = `${this.phase}:${this.id}`;
    if (this.verdict === 'allow') {
      world.policy.delete(key);
      model.policy.delete(key);
    } else {
      world.policy.set(key, this.verdict);
      model.policy.set(key, false);
    }
  }
  toString = () => `policy(${this.id}, ${this.phase}, ${this.verdict})`;
}

/** Time passes (the suites fake `Date`): threads idle past the ttl expire. */
export class AdvanceCommand implements fc.AsyncCommand<ConfiguredModel, AdapterCommandWorld> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: ConfiguredModel) {
    model.clock += this.ms;
    vi.setSystemTime(model.clock);
  }
  toString = () => `advance(${this.ms} ms)`;
}

/** The store starts failing every call, or recovers (only with a store of the suite's own). */
export class FailCommand implements fc.AsyncCommand<ConfiguredModel, AdapterCommandWorld> {
  constructor(readonly failing: boolean) {}
  check = (model: Readonly<ConfiguredModel>) => model.config.storage === 'store';
  async run(model: ConfiguredModel, world: AdapterCommandWorld) {
    model.failing = this.failing;
    world.failing = this.failing;
  }
  toString = () => `store ${this.failing ? 'fails' : 'recovers'}`;
}

/** A store method: tool-search-core's `LoadedToolsStore` (not imported: core's tests import this). */
type StoreMethod = (thread: string, ...rest: never[]) => Promise<unknown>;
/** The methods of a loaded-tools store. */
interface StoreMethods {
  get: StoreMethod;
  set: StoreMethod;
  delete: StoreMethod;
  update?: StoreMethod;
}

/**
 * A store that forwards to `inner` while `isFailing()` is false and rejects every call while it is
 * true (an unreachable Redis, say). `update` is offered only when `inner` has it.
 */
export function failingStore<TStore extends StoreMethods>(
  inner: TStore,
  isFailing: () => boolean,
): Pick<TStore, keyof StoreMethods & keyof TStore> {
  const guarded = (method: StoreMethod): StoreMethod => {
    const call = method.bind(inner);
    return (...args) =>
      isFailing() ? Promise.reject(new Error('store unavailable')) : call(...args);
  };
  return {
    get: guarded(inner.get),
    set: guarded(inner.set),
    delete: guarded(inner.delete),
    ...(inner.update && { update: guarded(inner.update) }),
  } as Pick<TStore, keyof StoreMethods & keyof TStore>;
}
