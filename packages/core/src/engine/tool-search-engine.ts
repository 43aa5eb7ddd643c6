import { ToolEmbeddings } from '../embedding/tool-embeddings';
import { readVectorCacheHeader, VectorCache } from '../embedding/vector-cache';
import { SnapshotError } from '../search/snapshot-ranking';
import type { ToolDescriptor } from '../search/tool-descriptor';
import { ToolIndex } from '../search/tool-index';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import { createMemoryStore, type MemoryStore, type StateStats } from '../state/memory-store';
import { DeferredCatalogs } from './deferred-tools';
import { catalogWeight } from './direct-tools';
import {
  decodeEngineSnapshot,
  type EngineSnapshotParts,
  encodeEngineSnapshot,
  isEngineSnapshot,
} from './engine-snapshot';
import {
  type RequestCatalog,
  RequestCatalogs,
  type RequestTools,
  ResolvedTools,
} from './request-catalogs';
import { resolveFusion, resolveToolSearch } from './resolve-options';
import type { ResolvedEngineOptions, SessionEngine } from './session-engine';
import { SnapshotDriftError } from './snapshot-drift-error';
import { buildCatalog, type CatalogEntry, type ToolCatalog } from './tool-catalog';
import { ToolSearchSession } from './tool-search-session';
import type { SessionInit, ToolSearchEngineOptions } from './types';

const DEFAULT_FILTER_TIMEOUT = 3_000;
const DEFAULT_TOP_K = 5;
/**
 * Results of a proxy search that carry their definitions: enough that the tool the model wants is
 * usually among them (the first three hold it for most queries, bench:quality's recall@3), few
 * enough that the definitions every later request reads again stay cheap (bench:cost).
 */
const DEFAULT_DEFINITIONS = 3;

/**
 * The framework-agnostic tool search: owns the catalog's index, the loaded-tool state and the
 * policy. Adapters create one per agent and a {@link ToolSearchSession} per request.
 */
export class ToolSearchEngine<TTool, TContext = unknown> implements SessionEngine<TTool, TContext> {
  /** Resolved options; read by sessions. */
  readonly options: ResolvedEngineOptions<TTool, TContext>;
  readonly index: ToolIndex;
  /**
   * The vectors of tool texts, by content hash, when `embed` is given: `serialize()` it to keep
   * them, `restore()` them into a new engine to skip embedding the catalog again.
   */
  readonly vectorCache: VectorCache | undefined;
  /** @internal Computes and caches vectors; `undefined` without `embed`. */
  readonly embeddings: ToolEmbeddings | undefined;
  /** The static tools by id; `catalog.idOf(name)` also resolves the keys they are listed under. */
  readonly catalog: ReadonlyMap<string, CatalogEntry<TTool>> & Pick<ToolCatalog<TTool>, 'idOf'>;
  /** The store of thread state, or `undefined` under `storage: 'context'`. */
  readonly store: LoadedToolsStore | undefined;
  readonly #memoryStore: MemoryStore | undefined;
  readonly #requestCatalogs: RequestCatalogs<TTool>;
  /** @internal The catalogs of `deferredTools` metadata; `undefined` without the option. */
  readonly deferredCatalogs: DeferredCatalogs<TTool> | undefined;

  constructor(options: ToolSearchEngineOptions<TTool, TContext>) {
    if (!options || typeof options !== 'object')
      throw new TypeError('ToolSearchEngine: options are required');
    if (!options.tools || typeof options.tools !== 'object') {
      throw new TypeError('ToolSearchEngine: `tools` must be a record of tools');
    }
    if (typeof options.describe !== 'function')
      throw new TypeError('ToolSearchEngine: `describe` must be a function');
    const topK = options.search?.topK ?? DEFAULT_TOP_K;
    if (!(Number.isInteger(topK) && topK >= 1))
      throw new RangeError(`ToolSearchEngine: search.topK must be an integer >= 1, got ${topK}`);
    const minScore = options.search?.minScore ?? 0;
    if (Number.isNaN(minScore))
      throw new RangeError('ToolSearchEngine: search.minScore must be a number');
    const filterTimeout = options.filterTimeout ?? DEFAULT_FILTER_TIMEOUT;
    if (!(filterTimeout > 0))
      throw new RangeError(`ToolSearchEngine: filterTimeout must be > 0 ms, got ${filterTimeout}`);
    if (
      options.maxLoadedTools !== undefined &&
      !(Number.isInteger(options.maxLoadedTools) && options.maxLoadedTools >= 1)
    ) {
      throw new RangeError(
        `ToolSearchEngine: maxLoadedTools must be an integer >= 1, got ${options.maxLoadedTools}`,
      );
    }
    if (options.embed !== undefined && typeof options.embed !== 'function')
      throw new TypeError('ToolSearchEngine: `embed` must be a function');
    const expose = options.expose ?? 'tools';
    if (expose !== 'tools' && expose !== 'proxy')
      throw new TypeError(
        `ToolSearchEngine: expose must be 'tools' or 'proxy', got ${JSON.stringify(expose)}`,
      );
    if (options.runTool !== undefined && typeof options.runTool !== 'function')
      throw new TypeError('ToolSearchEngine: `runTool` must be a function');
    if (expose === 'proxy' && options.runTool === undefined)
      throw new TypeError(
        "ToolSearchEngine: expose: 'proxy' needs `runTool`, which call_tool runs loaded tools with",
      );
    for (const name of ['deferredTools', 'deferredFilter'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'function')
        throw new TypeError(`ToolSearchEngine: \`${name}\` must be a function`);
    }
    const definitions = options.search?.definitions ?? DEFAULT_DEFINITIONS;
    if (!(Number.isInteger(definitions) && definitions >= 0))
      throw new RangeError(
        `ToolSearchEngine: search.definitions must be an integer >= 0, got ${definitions}`,
      );
    const directBelow = resolveToolSearch(options.toolSearch);
    if (directBelow === Number.POSITIVE_INFINITY && options.deferredTools !== undefined)
      throw new TypeError(
        "ToolSearchEngine: toolSearch: false cannot give deferredTools directly (they are resolved only when loaded); use true or 'auto'",
      );
    const fusion = resolveFusion(options.fusion);
    this.catalog = buildCatalog(options.tools, options.describe, 'tools');
    // Pins may name a tool by id or by key; the rest of the engine works with ids.
    const alwaysLoaded = (options.alwaysLoaded ?? []).map((name) => {
      const id = this.catalog.idOf(name);
      if (id === undefined) {
        throw new Error(
          `ToolSearchEngine: alwaysLoaded names "${name}", which is not a tool id or key in \`tools\``,
        );
      }
      return id;
    });
    this.options = {
      ...options,
      topK,
      minScore,
      autoLoad: options.search?.autoLoad ?? false,
      expose,
      filterTimeout,
      alwaysLoaded,
      fusion,
      definitions,
      // Deferred tools are resolved only when loaded: an engine with them always searches.
      directBelow: options.deferredTools === undefined ? directBelow : 0,
    };
    if (options.embed) {
      this.vectorCache = new VectorCache({ model: fusion.model });
      this.embeddings = new ToolEmbeddings({
        embed: options.embed,
        cache: this.vectorCache,
        timeout: fusion.timeout,
        batchSize: fusion.batchSize,
        kernel: fusion.kernel,
      });
    } else {
      this.vectorCache = undefined;
      this.embeddings = undefined;
    }

    // An engine snapshot (`toSnapshot()`) carries the index and the vectors; a plain index
    // snapshot (`index.toSnapshot()`) the index alone.
    const snapshot: EngineSnapshotParts | undefined =
      options.snapshot === undefined
        ? undefined
        : isEngineSnapshot(options.snapshot)
          ? decodeEngineSnapshot(options.snapshot)
          : { index: options.snapshot, vectors: undefined };
    this.index =
      snapshot === undefined
        ? new ToolIndex(
            [...this.catalog.values()].map((entry) => entry.descriptor),
            options.index,
          )
        : indexFromSnapshot(snapshot.index, this.catalog, options);
    // Without `embed` the snapshot's vectors have no use and are ignored.
    if (snapshot?.vectors && this.vectorCache) {
      restoreVectors(this.vectorCache, snapshot.vectors, options);
    }
    this.deferredCatalogs = options.deferredTools
      ? new DeferredCatalogs<TTool>(options.index)
      : undefined;
    this.#requestCatalogs = new RequestCatalogs({
      describe: options.describe,
      indexOptions: options.index,
      build: (tools, describe, skip) => buildCatalog(tools, describe, 'resolved tools', skip),
    });

    const storage = options.storage ?? 'in-memory';
    if (storage === 'in-memory') {
      this.#memoryStore = createMemoryStore({
        ...(options.ttl !== undefined && { ttl: options.ttl }),
        ...(options.maxThreads !== undefined && { maxThreads: options.maxThreads }),
      });
      this.store = this.#memoryStore;
    } else if (storage === 'context') {
      this.store = undefined;
    } else if (
      typeof storage?.get === 'function' &&
      typeof storage.set === 'function' &&
      (storage.update === undefined || typeof storage.update === 'function')
    ) {
      this.store = storage;
    } else {
      throw new TypeError(
        "ToolSearchEngine: storage must be 'in-memory', 'context' or a LoadedToolsStore",
      );
    }
  }

  /**
   * What the catalog's tool definitions weigh together, in estimated tokens (`estimateTokens` of
   * each `{ name, description, input_schema }`): what `toolSearch: 'auto'` compares with its
   * threshold before a filter or a request's own tools change the set.
   */
  get catalogWeight(): number {
    return catalogWeight(this.catalog);
  }

  /**
   * Whether a request without a filter's refusals and without tools of its own would search:
   * `false` when `toolSearch` gives the catalog directly (an adapter writes its instructions by it).
   */
  get searchesCatalog(): boolean {
    return this.catalogWeight >= this.options.directBelow;
  }

  /**
   * Starts one request's view: its thread state, its resolved tools and its meta-tools.
   * @param init - thread id, request context, request-resolved tools, conversation tool results
   */
  createSession(init: SessionInit<TTool, TContext> = {}): ToolSearchSession<TTool, TContext> {
    return new ToolSearchSession(this, init);
  }

  /**
   * @internal The catalog and index of a request's resolved tools. A tool object seen before is
   * not described again, a request with the same tools reuses its catalog and index, and one
   * with equal content reuses the index (see {@link RequestCatalogs}).
   */
  requestCatalog(
    tools: RequestTools<TTool> | readonly TTool[],
    keyOf?: (tool: TTool) => string,
  ): RequestCatalog<TTool> {
    // A request's tools come from outside (an MCP server, a dynamic tools function): one bad tool
    // must not fail the request, so a duplicate is skipped and reported instead of thrown.
    return this.#requestCatalogs.resolve(
      tools,
      (error) => {
        try {
          this.options.onError?.({ threadId: undefined, operation: 'resolvedTools', error });
        } catch {
          // Telemetry must never break the agent.
        }
      },
      keyOf,
    );
  }

  /**
   * Describes and indexes one request's tools, for sessions of that request: pass the result as
   * `resolvedTools` at each step, so no step passes over the tools again. Tool objects this
   * engine has seen are not described again, and tools with the same content share an index.
   * A tool without an id, with a duplicate id or key, or with a meta-tool's name is skipped and reported
   * through `onError` (operation `'resolvedTools'`).
   * @param tools - the request's tools: a record keyed as the framework keys them, `[key, tool]`
   *   pairs (a `Map`, an array), or an array of tools with `options.keyOf`; arrays are much
   *   cheaper to walk than a large record
   * @param options - `keyOf`: the key of each tool of an array of tools (its name)
   * @example
   * const resolved = engine.resolveTools(await mcpTools(user));
   * const session = engine.createSession({ threadId, resolvedTools: resolved });
   */
  resolveTools(tools: RequestTools<TTool>): ResolvedTools<TTool>;
  resolveTools(
    tools: readonly TTool[],
    options: { keyOf: (tool: TTool) => string },
  ): ResolvedTools<TTool>;
  resolveTools(
    tools: RequestTools<TTool> | readonly TTool[],
    options?: { keyOf?: (tool: TTool) => string },
  ): ResolvedTools<TTool> {
    if (!tools || typeof tools !== 'object')
      throw new TypeError('ToolSearchEngine.resolveTools: `tools` must be a record of tools');
    return new ResolvedTools(this, this.requestCatalog(tools, options?.keyOf));
  }

  /**
   * Embeds every catalog tool that has no vector yet, so the first searches need not wait for
   * it (without this, tools are embedded at the first search). A no-op without `embed`.
   * @throws an `EmbeddingError` when the embedder failed (also reported to `onError`); a later
   *   call or search tries again
   */
  async warmEmbeddings(): Promise<void> {
    await this.embeddings?.warm(
      [{ index: this.index, catalog: this.catalog }],
      (operation, error) => {
        try {
          this.options.onError?.({ threadId: undefined, operation, error });
        } catch {
          // Telemetry must never break the agent.
        }
      },
    );
  }

  /**
   * The engine's snapshot, to pass as the `snapshot` option of a later engine with the same
   * catalog, `describe` and `index` options (at deploy time, say): the catalog's index and, with
   * `embed`, every vector embedded so far (call {@link warmEmbeddings} first to have them all), so
   * the later engine neither indexes nor embeds the catalog again. Vectors are restored only into
   * an engine with `embed` and the same `fusion.model`.
   * @throws a `SnapshotError` when the index uses a tokenizer or stem function (no snapshot can
   *   hold one)
   * @example
   * await engine.warmEmbeddings();
   * writeFileSync('tools.snapshot', engine.toSnapshot());
   */
  toSnapshot(): Uint8Array {
    return encodeEngineSnapshot({
      index: this.index.toSnapshot(),
      vectors: this.vectorCache?.serialize(),
    });
  }

  /** Forgets one thread's loaded tools (in-memory or custom store; a no-op under 'context'). */
  async clearState(threadId: string): Promise<void> {
    await this.store?.delete(threadId);
  }

  /** Forgets every thread (the in-memory store only). */
  clearAllState(): void {
    this.#memoryStore?.clearAllState();
  }

  /** Thread count and oldest access of the in-memory store; zeros for other storage. */
  getStateStats(): StateStats {
    return this.#memoryStore?.getStateStats() ?? { threadCount: 0, oldestAccessTime: null };
  }

  /** Drops expired in-memory threads now; returns how many. */
  cleanupNow(): number {
    return this.#memoryStore?.cleanupNow() ?? 0;
  }

  /** Stops the in-memory store's cleanup timer. */
  dispose(): void {
    this.#memoryStore?.dispose();
  }
}

/**
 * Creates a {@link ToolSearchEngine}. Name the request context's type as the second type argument
 * (`createToolSearchEngine<MyTool, AppContext>(...)`) or annotate the filter's parameter;
 * otherwise the context a filter reads is `unknown`.
 * @typeParam TTool - your tool type, inferred from `tools`
 * @typeParam TContext - the request context a `filter` reads and `createSession` takes
 * @param options - catalog, describe function, search settings, storage, filter, budget, events
 * @example
 * const engine = createToolSearchEngine({
 *   tools: { get_weather: weatherTool },
 *   describe: (tool, key) => ({ id: key, description: tool.description }),
 * });
 * const session = engine.createSession({ threadId: 'thread-1' });
 */
export function createToolSearchEngine<TTool, TContext = unknown>(
  options: ToolSearchEngineOptions<TTool, TContext>,
): ToolSearchEngine<TTool, TContext> {
  return new ToolSearchEngine(options);
}

/**
 * The catalog's index restored from a snapshot: refused (thrown) when the bytes or the ranking
 * options are wrong; when the catalog's tools are not the snapshot's (other ids, or other text
 * under the same ids, told apart by the content hash the snapshot keeps per tool), those tools
 * alone are indexed again and the drift is reported.
 */
function indexFromSnapshot<TTool, TContext>(
  snapshot: Uint8Array,
  catalog: ReadonlyMap<string, CatalogEntry<TTool>>,
  options: ToolSearchEngineOptions<TTool, TContext>,
): ToolIndex {
  // The engine's options, defaults included: request-resolved tools are ranked with them too.
  const index = ToolIndex.fromSnapshot(snapshot, options.index ?? {});
  const descriptors = new Array<ToolDescriptor>(catalog.size);
  let position = 0;
  for (const entry of catalog.values()) descriptors[position++] = entry.descriptor;
  const changes = index.sync(descriptors);
  if (changes.added.length + changes.changed.length + changes.removed.length === 0) return index;
  const error = new SnapshotDriftError(
    changes,
    index.size - changes.added.length - changes.changed.length,
  );
  try {
    options.onError?.({ threadId: undefined, operation: 'snapshot', error });
  } catch {
    // Telemetry must never break the agent.
  }
  return index;
}

/**
 * Restores a snapshot's vectors into the engine's cache. Vectors of another model or dimension
 * are left out (they would rank nonsense) and reported, as is a vector part that cannot be read:
 * either way the catalog is embedded as without a snapshot.
 */
function restoreVectors<TTool, TContext>(
  cache: VectorCache,
  bytes: Uint8Array,
  options: ToolSearchEngineOptions<TTool, TContext>,
): void {
  let error: Error | undefined;
  try {
    const header = readVectorCacheHeader(bytes);
    if (cache.restore(bytes) === 0 && header !== undefined && header.count > 0) {
      const theirs = header.model === undefined ? 'no fusion.model' : `model "${header.model}"`;
      const ours = cache.model === undefined ? 'no fusion.model' : `fusion.model "${cache.model}"`;
      error = new SnapshotError(
        'options',
        `ToolSearchEngine: the snapshot's ${header.count} vectors (${header.dimension} dimensions) were written with ${theirs}, and this engine has ${ours}: they were not restored, and the catalog will be embedded again. Rebuild the snapshot with this model.`,
      );
    }
  } catch (cause) {
    // The envelope's checksum passed, so only a writer bug gets here: embed as if there were none.
    error = new SnapshotError(
      'corrupt',
      `ToolSearchEngine: the snapshot's vectors cannot be read (${String(cause)}); the catalog will be embedded again`,
    );
  }
  if (error === undefined) return;
  try {
    options.onError?.({ threadId: undefined, operation: 'snapshot', error });
  } catch {
    // Telemetry must never break the agent.
  }
}
