import type { Searchable } from '../embedding/tool-embeddings';
import { callLoadedTool } from '../meta-tools/call-tool';
import { createMetaTools } from '../meta-tools/create-meta-tools';
import type { MetaToolHost } from '../meta-tools/meta-tool-host';
import type { CallToolOutcome } from '../meta-tools/meta-tool-schemas';
import { toolSearchInstructions } from '../meta-tools/meta-tool-texts';
import type { ToolDescriptor } from '../search/tool-descriptor';
import type { ToolIndex } from '../search/tool-index';
import type {
  LoadedToolEntry,
  LoadedToolsChange,
  LoadedToolsOperation,
} from '../state/loaded-tools-store';
import type { DeferredTool, ToolResolutionError } from './deferred-tools';
import { directTools } from './direct-tools';
import { type RequestCatalog, ResolvedTools } from './request-catalogs';
import { runFilter } from './run-filter';
import { SessionDeferredTools } from './session-deferred-tools';
import type { SessionEngine } from './session-engine';
import { SessionLoads, withinBudget } from './session-loads';
import { type CatalogEntry, idIn } from './tool-catalog';
import type {
  ActiveTool,
  DenialReason,
  ExposeMode,
  FilterPhase,
  MetaTool,
  SessionInit,
  ToolOffer,
  ToolResultRecord,
  ToolSearchEvents,
} from './types';

/**
 * One request's view of the engine: who is asking (thread, context), which tools exist for it
 * (static plus request-resolved), what is loaded, and the meta-tools bound to all that.
 * A session without a thread id keeps its loaded tools to itself: they come from its own tool
 * results and loads, never from shared state.
 */
export class ToolSearchSession<TTool, TContext = unknown> implements MetaToolHost<TTool, TContext> {
  readonly threadId: string | undefined;
  readonly requestContext: TContext | undefined;
  /** How loaded tools reach the model in this request: the engine's `expose`, unless overridden. */
  readonly expose: ExposeMode;
  /**
   * The meta-tools to offer this step: `search_tools`, then `load_tool` (unless autoLoad),
   * `call_tool` (under `expose: 'proxy'`) and `unload_tool` (when enabled).
   */
  readonly metaTools: MetaTool[];
  /** The engine this session belongs to (its options, catalog and index). */
  readonly engine: SessionEngine<TTool, TContext>;
  readonly #resolved: RequestCatalog<TTool> | undefined;
  /** The request's deferred tools, when the engine has a `deferredTools` source. */
  readonly #deferred: SessionDeferredTools<TTool, TContext> | undefined;
  readonly #filterAnswers = new Map<string, Promise<boolean>>();
  /** The tools given directly (`toolSearch`), or `undefined` when the request searches; asked once. */
  #direct: Promise<ActiveTool<TTool>[] | undefined> | undefined;
  /** The loaded tools: in the store, or derived from the conversation. */
  readonly #loads: SessionLoads;

  /** @internal Use `engine.createSession()`. */
  constructor(engine: SessionEngine<TTool, TContext>, init: SessionInit<TTool, TContext>) {
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
    this.#deferred = engine.deferredCatalogs ? new SessionDeferredTools(this) : undefined;
    this.#loads = new SessionLoads(
      {
        threadId: this.threadId,
        store: engine.store,
        pinned: engine.options.alwaysLoaded ?? [],
        resolveName: (name) => this.lookup(name)?.descriptor.id ?? name,
        idOf: (name) => this.idOf(name),
        prepareDeferred: (names) => this.prepareDeferred(names),
        allowsLoad: (name) => this.allows(name, 'load'),
        reportError: (operation, error) =>
          this.emit('onError', { threadId: this.threadId, operation, error }),
      },
      init,
    );
    this.metaTools = createMetaTools(this);
  }

  /** @internal The engine's resolved options, as the meta-tools read them. */
  get settings(): SessionEngine<TTool, TContext>['options'] {
    return this.engine.options;
  }

  /** @internal The engine's embeddings, when it has `embed`. */
  get embeddings(): SessionEngine<TTool, TContext>['embeddings'] {
    return this.engine.embeddings;
  }

  /**
   * Whether this request searches the catalog (`toolSearch`): `false` when every tool it may use
   * is given directly, because they weigh less than the threshold (or `toolSearch: false`).
   */
  async usesSearch(): Promise<boolean> {
    return (await this.#directTools()) === undefined;
  }

  /**
   * What to give the model this step, whichever way `toolSearch` decides: the meta-tools and their
   * instruction while the request searches (none when every tool is given directly), and the
   * tools besides them (`offeredTools()`: pinned, then loaded under `expose: 'tools'`; or every
   * tool the request may use).
   */
  async offer(): Promise<ToolOffer<TTool>> {
    const search = await this.usesSearch();
    return {
      search,
      metaTools: search ? this.metaTools : [],
      instructions: search ? this.instructions : '',
      tools: await this.offeredTools(),
    };
  }

  #directTools(): Promise<ActiveTool<TTool>[] | undefined> {
    this.#direct ??= directTools(
      {
        staticCatalog: this.engine.catalog,
        resolvedCatalog: this.#resolved?.catalog,
        pinned: this.engine.options.alwaysLoaded ?? [],
        filtered: this.engine.options.filter !== undefined,
        allows: (id, phase) => this.allows(id, phase),
      },
      this.engine.options.directBelow,
    );
    return this.#direct;
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
    this.#loads.setToolResults(results);
  }

  /** @internal The indexes searched for this request: static first, then request-resolved. */
  get indexes(): ToolIndex[] {
    const indexes = this.#resolved
      ? [this.engine.index, this.#resolved.index]
      : [this.engine.index];
    const deferred = this.#deferred?.catalog;
    if (deferred) indexes.push(deferred.index);
    return indexes;
  }

  /** @internal What this request ranks, in the order of `indexes`: each index with its catalog. */
  get searchables(): Searchable<unknown>[] {
    const own = { index: this.engine.index, catalog: this.engine.catalog };
    const searchables: Searchable<unknown>[] = this.#resolved ? [own, this.#resolved] : [own];
    const deferred = this.#deferred?.catalog;
    if (deferred) searchables.push(deferred);
    return searchables;
  }

  /**
   * Fetches the request's deferred tools (`deferredTools`) when they are needed and not fetched
   * yet: always without `names` (a search, a listing), and with `names` only when one of them is
   * no static or request-resolved tool. Rejects when the source failed or listed a duplicate.
   * @param names - the names about to be looked up, if that is the need
   */
  async prepareDeferred(names?: Iterable<string>): Promise<void> {
    if (!this.#deferred) return;
    if (names !== undefined && [...names].every((name) => this.lookup(name) !== undefined)) return;
    await this.#deferred.fetch();
  }

  /**
   * The id a name stands for in this request: an id or key of a static, request-resolved or
   * (once fetched, see {@link prepareDeferred}) deferred tool.
   * @param name - an id, or the key a tool is listed under
   */
  idOf(name: string): string | undefined {
    return this.lookup(name)?.descriptor.id ?? this.#deferred?.entry(name)?.descriptor.id;
  }

  /** @internal Why a deferred tool could not be resolved in this session, if it was tried and failed. */
  resolutionError(id: string): ToolResolutionError | undefined {
    return this.#deferred?.failure(id);
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
  async listTools(
    phase: FilterPhase = 'search',
  ): Promise<CatalogEntry<TTool | DeferredTool<TTool>>[]> {
    const entries: CatalogEntry<TTool | DeferredTool<TTool>>[] = [...this.knownIds()].map(
      (id) => this.lookup(id)!,
    );
    // Deferred metadata is listed as it is (nothing is resolved for a listing); a source that
    // failed leaves the rest listed (the failure went to `onError`).
    const deferred = await this.prepareDeferred().then(
      () => this.#deferred?.catalog?.catalog.values() ?? [],
      () => [],
    );
    entries.push(...deferred);
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
    // Below the `toolSearch` threshold, every tool the request may use is active and offered.
    const direct = await this.#directTools();
    if (direct) return direct;
    const pinned = new Set(this.engine.options.alwaysLoaded ?? []);
    const entries = withLoaded
      ? withinBudget(await this.readEntries(), this.engine.options.maxLoadedTools)
      : [];
    const fromContext = !this.usesStore;
    // Only a loaded tool that no static or request-resolved tool answers needs the deferred list;
    // a source that fails withholds the deferred tools (reported) and nothing else.
    await this.prepareDeferred(entries.map((entry) => entry.id)).catch(() => undefined);
    const candidates: ActiveTool<TTool | undefined>[] = [];
    for (const id of pinned) {
      const entry = this.lookup(id);
      if (entry) candidates.push({ id, tool: entry.tool, pinned: true });
    }
    for (const { id } of entries) {
      if (pinned.has(id)) continue;
      const entry = this.lookup(id);
      if (entry) candidates.push({ id, tool: entry.tool, pinned: false });
      else if (this.#deferred?.entry(id))
        candidates.push({ id, tool: undefined, pinned: false, deferred: true });
    }
    // Filters may be slow (a policy service): ask for every candidate at once, keep the order.
    // A deferred tool is resolved by its first `load` or `active` check.
    const allowed = await Promise.all(
      candidates.map(
        async ({ id, pinned: isPinned }) =>
          (isPinned ||
            !fromContext ||
            this.#loads.isTrusted(id) ||
            (await this.allows(id, 'load'))) &&
          this.allows(id, 'active'),
      ),
    );
    return candidates
      .filter((_, position) => allowed[position])
      .map((candidate) =>
        candidate.deferred
          ? { ...candidate, tool: this.#deferred!.resolved(candidate.id)! }
          : (candidate as ActiveTool<TTool>),
      );
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
    return (await this.activeTool(toolName)) !== undefined;
  }

  /**
   * The tool a name stands for, when the model may run it now (as {@link isActive} decides, with
   * the same report and budget touch): the object to run (a deferred tool resolved for this
   * request), the key it is listed under, and the descriptor the model was shown.
   * @param toolName - an id or a key, as the model wrote it
   * @param options - `quiet`: a tool that is not active is not reported as refused (the caller
   *   goes on to load it)
   */
  async activeTool(
    toolName: string,
    options: { quiet?: boolean } = {},
  ): Promise<(ActiveTool<TTool> & { key: string; descriptor: ToolDescriptor }) | undefined> {
    // The policy may have changed since this session answered (a tool object kept from an
    // earlier step, an approval that waited): a tool runs only if the filter allows it now.
    this.#filterAnswers.clear();
    this.#direct = undefined;
    const active = await this.activeTools();
    // After activeTools, which fetches the deferred tools a loaded name may stand for.
    const id = this.idOf(toolName) ?? toolName;
    const found = active.find((tool) => tool.id === id);
    const entry = found && (this.lookup(id) ?? this.#deferred?.entry(id));
    if (!found || !entry) {
      if (options.quiet) return undefined;
      this.emit('onDenied', {
        threadId: this.threadId,
        toolName,
        phase: 'execute',
        reason: 'not-active',
      });
      return undefined;
    }
    if (this.engine.options.maxLoadedTools !== undefined) await this.touch(id);
    return { ...found, key: entry.key, descriptor: entry.descriptor };
  }

  /**
   * The descriptor a name stands for in this request (static, request-resolved, or an already
   * fetched deferred tool's metadata): what `load_tool` shows the model under proxy.
   * @param name - an id or a key
   */
  descriptorOf(name: string): ToolDescriptor | undefined {
    return (this.lookup(name) ?? this.#deferred?.entry(name))?.descriptor;
  }

  /** @internal Asks the filter, once per tool and phase in this session, with the tool's id. */
  allows(name: string, phase: FilterPhase): Promise<boolean> {
    const filter = this.engine.options.filter;
    if (!filter && !this.#deferred) return Promise.resolve(true);
    const entry = this.lookup(name);
    const deferred = entry ? undefined : this.#deferred?.entry(name);
    if (!entry && !deferred) return Promise.resolve(false);
    if (entry && !filter) return Promise.resolve(true);
    const id = (entry ?? deferred)!.descriptor.id;
    const key = `${phase}\u0000${id}`;
    let answer = this.#filterAnswers.get(key);
    if (!answer) {
      answer = entry ? this.#askFilter(id, entry.tool, phase) : this.#allowsDeferred(id, phase);
      this.#filterAnswers.set(key, answer);
    }
    return answer;
  }

  /** Asks the engine's filter about a real tool, reporting a refusal. */
  async #askFilter(id: string, tool: TTool, phase: FilterPhase): Promise<boolean> {
    const verdict = await runFilter(
      this.engine.options.filter!,
      { toolName: id, tool, requestContext: this.requestContext, phase },
      this.engine.options.filterTimeout,
    );
    if (verdict.allowed) return true;
    this.deny(id, phase, verdict.reason);
    if (verdict.error !== undefined)
      this.emit('onError', {
        threadId: this.threadId,
        operation: `filter:${phase}`,
        error: verdict.error,
      });
    return false;
  }

  /**
   * A deferred tool: its metadata must pass `deferredFilter`, which is all a search asks; a load
   * or an active tool is then resolved, and the engine's filter asked about the real tool.
   */
  async #allowsDeferred(id: string, phase: FilterPhase): Promise<boolean> {
    if (!(await this.#deferred!.allowsMetadata(id, phase))) return false;
    if (phase === 'search') return true;
    const tool = await this.#deferred!.resolve(id);
    if (tool === undefined) {
      this.deny(id, phase, 'resolve-error');
      return false;
    }
    return this.engine.options.filter ? this.#askFilter(id, tool, phase) : true;
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
   * @internal Applies an operation to this session's loaded tools, atomically where the state
   * lives; a store failure is reported and rethrown as a `StoreError`.
   */
  applyOperation(operation: LoadedToolsOperation): Promise<LoadedToolsChange> {
    return this.#loads.apply(operation);
  }

  /** @internal Runs a read-modify-write of this session's state, one at a time per thread. */
  update<TResult>(
    change: (entries: LoadedToolEntry[]) => TResult | Promise<TResult>,
  ): Promise<TResult> {
    return this.#loads.update(change);
  }

  /** @internal Loaded entries in load order. A failing store reads as empty (and is reported). */
  readEntries(options: { throwOnError?: boolean } = {}): Promise<LoadedToolEntry[]> {
    return this.#loads.read(options);
  }

  /** Whether this session's state lives in the store (a thread id and a store), not in its messages. */
  get usesStore(): boolean {
    return this.#loads.usesStore;
  }

  /** @internal Marks a loaded tool as just used, for the `maxLoadedTools` eviction order. */
  touch(toolName: string): Promise<void> {
    return this.#loads.touch(toolName);
  }
}

/** A request's catalog and index: resolved before (by this engine only), or resolved now. */
function resolvedOf<TTool, TContext>(
  engine: SessionEngine<TTool, TContext>,
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
