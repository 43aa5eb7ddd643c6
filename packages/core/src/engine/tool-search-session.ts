import type { Searchable } from '../embedding/tool-embeddings';
import { callLoadedTool } from '../meta-tools/call-tool';
import { createMetaTools } from '../meta-tools/create-meta-tools';
import type { CallToolOutcome } from '../meta-tools/meta-tool-schemas';
import { toolSearchInstructions } from '../meta-tools/meta-tool-texts';
import type { ToolIndex } from '../search/tool-index';
import { applyLoadedToolsOperation } from '../state/apply-loaded-tools-operation';
import { type DerivedTool, deriveLoadedTools } from '../state/context-state';
import type {
  LoadedToolEntry,
  LoadedToolsChange,
  LoadedToolsOperation,
} from '../state/loaded-tools-store';
import { runExclusive } from './exclusive';
import { type RequestCatalog, ResolvedTools } from './request-catalogs';
import { runFilter } from './run-filter';
import { type CatalogEntry, idIn } from './tool-catalog';
import type { ToolSearchEngine } from './tool-search-engine';
import type {
  ActiveTool,
  DenialReason,
  ExposeMode,
  FilterPhase,
  MetaTool,
  SessionInit,
  ToolResultRecord,
  ToolSearchEvents,
} from './types';

/**
 * One request's view of the engine: who is asking (thread, context), which tools exist for it
 * (static plus request-resolved), what is loaded, and the meta-tools bound to all that.
 * A session without a thread id keeps its loaded tools to itself: they come from its own tool
 * results and loads, never from shared state.
 */
export class ToolSearchSession<TTool, TContext = unknown> {
  readonly threadId: string | undefined;
  readonly requestContext: TContext | undefined;
  /** How loaded tools reach the model in this request: the engine's `expose`, unless overridden. */
  readonly expose: ExposeMode;
  /** The meta-tools to offer this step: `search_tools`, then `load_tool` and `unload_tool` when enabled. */
  readonly metaTools: MetaTool[];
  /** The engine this session belongs to (its options, catalog and index). */
  readonly engine: ToolSearchEngine<TTool, TContext>;
  readonly #resolved: RequestCatalog<TTool> | undefined;
  /** Tools the conversation's tool results leave loaded (by id), derived once per `setToolResults`. */
  #derived: DerivedTool[];
  /** Loads made in this session that its tool results do not show yet (no store, or no thread). */
  #ownEntries: LoadedToolEntry[] = [];
  /** Under 'context': names the conversation loaded but this session unloaded or evicted. */
  readonly #removed = new Set<string>();
  readonly #filterAnswers = new Map<string, Promise<boolean>>();
  readonly #lockKey: object = {};

  /** @internal Use `engine.createSession()`. */
  constructor(engine: ToolSearchEngine<TTool, TContext>, init: SessionInit<TTool, TContext>) {
    this.engine = engine;
    this.threadId =
      typeof init.threadId === 'string' && init.threadId !== '' ? init.threadId : undefined;
    this.requestContext = init.requestContext;
    this.expose = init.expose ?? engine.options.expose;
    if (this.expose !== 'tools' && this.expose !== 'proxy')
      throw new TypeError(
        `ToolSearchSession: expose must be 'tools' or 'proxy', got ${JSON.stringify(this.expose)}`,
      );
    if (this.expose === 'proxy' && typeof engine.options.runTool !== 'function')
      throw new TypeError(
        "ToolSearchSession: expose: 'proxy' needs the engine's `runTool`, which call_tool runs loaded tools with",
      );
    this.#resolved = resolvedOf(engine, init.resolvedTools);
    this.#derived = this.#derive(init.toolResults ?? []);
    this.metaTools = createMetaTools(this);
  }

  /** The system instruction that explains the meta-tools to the model. */
  get instructions(): string {
    return toolSearchInstructions({
      autoLoad: this.engine.options.autoLoad,
      unloadTool: this.engine.options.unloadTool === true,
      expose: this.expose,
    });
  }

  /**
   * Runs a loaded tool, as `call_tool` does under `expose: 'proxy'`: a tool that is not pinned
   * or loaded, that the `active` filter denies now, or whose arguments break its input schema is
   * refused and never runs; otherwise the engine's `runTool` runs it.
   * @param call - `{ name, arguments }`, as the model sent them to `call_tool`
   * @param callOptions - the framework's options of this call, handed to `runTool` untouched
   * @throws what `runTool` throws (the tool's own error); a TypeError without `runTool`
   */
  callTool(call: unknown, callOptions?: unknown): Promise<CallToolOutcome> {
    if (typeof this.engine.options.runTool !== 'function') {
      return Promise.reject(
        new TypeError('ToolSearchSession.callTool: the engine has no `runTool` option'),
      );
    }
    return callLoadedTool(this, call, callOptions);
  }

  /** Replaces the conversation's tool results (for `storage: 'context'`); call it each step. */
  setToolResults(results: Iterable<ToolResultRecord>): void {
    this.#derived = this.#derive(results);
  }

  /** @internal The indexes searched for this request: static first, then request-resolved. */
  get indexes(): ToolIndex[] {
    return this.#resolved ? [this.engine.index, this.#resolved.index] : [this.engine.index];
  }

  /** @internal What this request ranks, in the order of `indexes`: each index with its catalog. */
  get searchables(): Searchable<TTool>[] {
    const own = { index: this.engine.index, catalog: this.engine.catalog };
    return this.#resolved ? [own, this.#resolved] : [own];
  }

  /** @internal Whether a static id is hidden by a request-resolved tool of the same id. */
  isShadowed(id: string, index: ToolIndex): boolean {
    return (
      index === this.engine.index && this.#resolved !== undefined && this.#resolved.catalog.has(id)
    );
  }

  /**
   * The tool a name resolves to for this request: an id before a key, and the request's own
   * instance before the static catalog's, so a resolved tool shadows a static tool of its id.
   * @param name - an id, or the key a tool is listed under
   */
  lookup(name: string): CatalogEntry<TTool> | undefined {
    const resolved = this.#resolved?.catalog;
    const id =
      resolved?.has(name) || this.engine.catalog.has(name)
        ? name
        : ((resolved && idIn(resolved, name)) ?? this.engine.catalog.idOf(name));
    if (id === undefined) return undefined;
    return resolved?.get(id) ?? this.engine.catalog.get(id);
  }

  /** All tool ids this request may know of. */
  *knownIds(): Iterable<string> {
    if (this.#resolved) yield* this.#resolved.catalog.keys();
    for (const id of this.engine.catalog.keys()) if (!this.#resolved?.catalog.has(id)) yield id;
  }

  /**
   * Every tool of this request that the filter allows in `phase`, in catalog order: for listing
   * the catalog to the model (Mastra's `injectCatalog`).
   */
  async listTools(phase: FilterPhase = 'search'): Promise<CatalogEntry<TTool>[]> {
    const entries = [...this.knownIds()].map((id) => this.lookup(id)!);
    const allowed = await Promise.all(
      entries.map((entry) => this.allows(entry.descriptor.id, phase)),
    );
    return entries.filter((_, position) => allowed[position]);
  }

  /**
   * The tools to offer next step besides the meta-tools: pinned tools, then loaded tools in load
   * order, each still known and allowed (`active` phase; under 'context' also `load`, since
   * messages can be forged).
   */
  activeTools(): Promise<ActiveTool<TTool>[]> {
    return this.#active(true);
  }

  async #active(withLoaded: boolean): Promise<ActiveTool<TTool>[]> {
    const pinned = new Set(this.engine.options.alwaysLoaded ?? []);
    const entries = withLoaded
      ? withinBudget(await this.readEntries(), this.engine.options.maxLoadedTools)
      : [];
    const fromContext = !this.usesStore;
    const candidates: ActiveTool<TTool>[] = [];
    for (const id of pinned) {
      const entry = this.lookup(id);
      if (entry) candidates.push({ id, tool: entry.tool, pinned: true });
    }
    for (const { id } of entries) {
      const entry = pinned.has(id) ? undefined : this.lookup(id);
      if (entry) candidates.push({ id, tool: entry.tool, pinned: false });
    }
    // Filters may be slow (a policy service): ask for every candidate at once, keep the order.
    const allowed = await Promise.all(
      candidates.map(
        async ({ id, pinned: isPinned }) =>
          (isPinned || !fromContext || (await this.allows(id, 'load'))) &&
          this.allows(id, 'active'),
      ),
    );
    return candidates.filter((_, position) => allowed[position]);
  }

  /**
   * The tools to give the model this step besides the meta-tools. Under `expose: 'tools'` the
   * pinned and loaded ones ({@link activeTools}); under `'proxy'` the pinned ones only, so the
   * model's tools stay the same through every load (loaded tools are reached by `call_tool`).
   */
  offeredTools(): Promise<ActiveTool<TTool>[]> {
    return this.#active(this.expose !== 'proxy');
  }

  /**
   * Whether the model may run this tool now: it is pinned or loaded, and still allowed. Call it
   * when the tool is about to execute; a tool the model names without loading it is refused.
   */
  async isActive(toolName: string): Promise<boolean> {
    const id = this.lookup(toolName)?.descriptor.id ?? toolName;
    // The policy may have changed since this session answered (a tool object kept from an
    // earlier step, an approval that waited): a tool runs only if the filter allows it now.
    this.#filterAnswers.clear();
    const active = (await this.activeTools()).some((tool) => tool.id === id);
    if (!active) {
      this.emit('onDenied', {
        threadId: this.threadId,
        toolName,
        phase: 'execute',
        reason: 'not-active',
      });
      return false;
    }
    if (this.engine.options.maxLoadedTools !== undefined) await this.touch(id);
    return true;
  }

  /** @internal Asks the filter, once per tool and phase in this session, with the tool's id. */
  allows(name: string, phase: FilterPhase): Promise<boolean> {
    const filter = this.engine.options.filter;
    if (!filter) return Promise.resolve(true);
    const entry = this.lookup(name);
    if (!entry) return Promise.resolve(false);
    const id = entry.descriptor.id;
    const key = `${phase}\u0000${id}`;
    let answer = this.#filterAnswers.get(key);
    if (!answer) {
      answer = runFilter(
        filter,
        { toolName: id, tool: entry.tool, requestContext: this.requestContext, phase },
        this.engine.options.filterTimeout,
      ).then((verdict) => {
        if (verdict.allowed) return true;
        this.deny(id, phase, verdict.reason);
        if (verdict.error !== undefined)
          this.emit('onError', {
            threadId: this.threadId,
            operation: `filter:${phase}`,
            error: verdict.error,
          });
        return false;
      });
      this.#filterAnswers.set(key, answer);
    }
    return answer;
  }

  /** @internal Reports a refusal to the operator. */
  deny(toolName: string, phase: FilterPhase | 'execute', reason: DenialReason): void {
    this.emit('onDenied', { threadId: this.threadId, toolName, phase, reason });
  }

  /** @internal Calls an event handler; a handler that throws is ignored. */
  emit<TName extends keyof ToolSearchEvents>(
    name: TName,
    event: Parameters<NonNullable<ToolSearchEvents[TName]>>[0],
  ): void {
    const handler = this.engine.options[name] as ((event: unknown) => void) | undefined;
    if (!handler) return;
    try {
      handler(event);
    } catch {
      // Telemetry must never break the agent.
    }
  }

  /**
   * @internal Applies an operation to this session's loaded tools. A store with `update` applies
   * it atomically where the state lives (safe across processes); otherwise it runs as a
   * read-modify-write under this process's per-thread lock. A store failure is reported and
   * rethrown as a {@link StoreError}.
   */
  async applyOperation(operation: LoadedToolsOperation): Promise<LoadedToolsChange> {
    const store = this.engine.store;
    if (store?.update && this.threadId !== undefined) {
      let change: LoadedToolsChange;
      try {
        change = await store.update(this.threadId, operation);
      } catch (error) {
        this.emit('onError', { threadId: this.threadId, operation: 'store.update', error });
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

  /** @internal Runs a read-modify-write of this session's state, one at a time per thread. */
  update<TResult>(
    change: (entries: LoadedToolEntry[]) => TResult | Promise<TResult>,
  ): Promise<TResult> {
    const key = this.usesStore ? `thread:${this.threadId}` : this.#lockKey;
    return runExclusive(key, async () => {
      const entries = await this.readEntries({ throwOnError: true });
      const result = await change(entries);
      await this.#writeEntries(entries);
      return result;
    });
  }

  /** @internal Loaded entries in load order. A failing store reads as empty (and is reported). */
  async readEntries(options: { throwOnError?: boolean } = {}): Promise<LoadedToolEntry[]> {
    const store = this.engine.store;
    if (store && this.threadId !== undefined) {
      try {
        const state = await store.get(this.threadId);
        return Array.isArray(state?.tools)
          ? state.tools
              .filter((entry) => typeof entry?.id === 'string')
              .map((entry) => ({ ...entry }))
          : [];
      } catch (error) {
        this.emit('onError', { threadId: this.threadId, operation: 'store.get', error });
        if (options.throwOnError) throw new StoreError(error);
        return [];
      }
    }
    // Under 'context', and for a request without a thread: this request's messages plus its own
    // loads. A derived tool counts as used when a result last loaded it.
    const entries: LoadedToolEntry[] = this.#derived
      .filter((tool) => !this.#removed.has(tool.name))
      .map((tool) => ({ id: tool.name, usedAt: tool.lastLoadedAt }));
    const seen = new Set(this.#derived.map((tool) => tool.name));
    for (const entry of this.#ownEntries) if (!seen.has(entry.id)) entries.push({ ...entry });
    return entries;
  }

  /**
   * The tools the results leave loaded, by id, in first-load order; a result may name a tool by
   * its key. Pinned tools are active anyway: as entries they would only take room in the budget.
   */
  #derive(results: Iterable<ToolResultRecord>): DerivedTool[] {
    const pinned = new Set(this.engine.options.alwaysLoaded ?? []);
    return deriveLoadedTools(results, (name) => this.lookup(name)?.descriptor.id ?? name).filter(
      (tool) => !pinned.has(tool.name),
    );
  }

  /** Whether this session's state lives in the store (a thread id and a store), not in its messages. */
  get usesStore(): boolean {
    return this.engine.store !== undefined && this.threadId !== undefined;
  }

  async #writeEntries(entries: LoadedToolEntry[]): Promise<void> {
    const store = this.engine.store;
    if (store && this.threadId !== undefined) {
      try {
        await store.set(this.threadId, { tools: entries });
      } catch (error) {
        this.emit('onError', { threadId: this.threadId, operation: 'store.set', error });
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

  /** @internal Marks a loaded tool as just used, for the `maxLoadedTools` eviction order. */
  async touch(toolName: string): Promise<void> {
    try {
      await this.applyOperation({ type: 'touch', id: toolName, at: Date.now() });
    } catch {
      // Recency is a hint for eviction; a store failure here is already reported.
    }
  }
}

/** A store failure, answered to the model as "try again" rather than thrown. */
export class StoreError extends Error {
  constructor(cause: unknown) {
    super('The loaded-tools store failed', { cause });
    this.name = 'StoreError';
  }
}

/** The strings of a list a store returned; anything else reads as empty. */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}

/** A request's catalog and index: resolved before (by this engine only), or resolved now. */
function resolvedOf<TTool, TContext>(
  engine: ToolSearchEngine<TTool, TContext>,
  tools: SessionInit<TTool, TContext>['resolvedTools'],
): RequestCatalog<TTool> | undefined {
  if (!tools) return undefined;
  if (!(tools instanceof ResolvedTools)) return engine.requestCatalog(tools);
  if (tools.owner !== engine) {
    throw new Error(
      "ToolSearchSession: resolvedTools were resolved by another engine, whose ranking options may differ; use this engine's resolveTools()",
    );
  }
  return tools;
}

/** Keeps the most recently used `max` entries, in load order. */
function withinBudget(entries: LoadedToolEntry[], max: number | undefined): LoadedToolEntry[] {
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
