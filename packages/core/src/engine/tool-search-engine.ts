import type { FusionSettings } from '../embedding/embed-function';
import { ToolEmbeddings } from '../embedding/tool-embeddings';
import { VectorCache } from '../embedding/vector-cache';
import { DEFAULT_RRF_K } from '../search/reciprocal-rank-fusion';
import type { ToolDescriptor } from '../search/tool-descriptor';
import { ToolIndex } from '../search/tool-index';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import { createMemoryStore, type MemoryStore, type StateStats } from '../state/memory-store';
import { buildCatalog, type CatalogEntry, type ToolCatalog } from './tool-catalog';
import { ToolSearchSession } from './tool-search-session';
import { META_TOOL_NAMES, type SessionInit, type ToolSearchEngineOptions } from './types';

/** Per-request indexes kept for reuse, keyed by content: a request's tools repeat across its steps and callers. */
const MAX_CACHED_REQUEST_INDEXES = 32;
const DEFAULT_FILTER_TIMEOUT = 3_000;
const DEFAULT_TOP_K = 5;
/** A cold call to a hosted embeddings API takes up to a second or two; five leaves room, not a hang. */
const DEFAULT_EMBED_TIMEOUT = 5_000;
/** Tool texts per embedding call: under every hosted API's per-request limit we know of but Cohere's (96), which adapters split further. */
const DEFAULT_EMBED_BATCH_SIZE = 128;

/** Timers fire at once beyond this delay (a signed 32-bit count of ms). */
const MAX_TIMER_DELAY = 2_147_483_647;

/** The fusion settings with their defaults applied. */
export type ResolvedFusionSettings = Required<Omit<FusionSettings, 'model'>> &
  Pick<FusionSettings, 'model'>;

/**
 * The framework-agnostic tool search: owns the catalog's index, the loaded-tool state and the
 * policy. Adapters create one per agent and a {@link ToolSearchSession} per request.
 */
export class ToolSearchEngine<TTool, TContext = unknown> {
  /** Resolved options; read by sessions. */
  readonly options: Readonly<ToolSearchEngineOptions<TTool, TContext>> & {
    topK: number;
    minScore: number;
    autoLoad: boolean;
    filterTimeout: number;
    fusion: ResolvedFusionSettings;
  };
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
  readonly #requestIndexes = new Map<string, ToolIndex>();

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
      filterTimeout,
      alwaysLoaded,
      fusion,
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

    this.index = new ToolIndex(
      [...this.catalog.values()].map((entry) => entry.descriptor),
      options.index,
    );

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
   * Starts one request's view: its thread state, its resolved tools and its meta-tools.
   * @param init - thread id, request context, request-resolved tools, conversation tool results
   */
  createSession(init: SessionInit<TTool, TContext> = {}): ToolSearchSession<TTool, TContext> {
    return new ToolSearchSession(this, init);
  }

  /**
   * @internal The catalog and index of a request's resolved tools, cached by their content so
   * the steps of one request, and requests with the same tools, index them once.
   */
  requestCatalog(tools: Readonly<Record<string, TTool>>): {
    catalog: Map<string, CatalogEntry<TTool>>;
    index: ToolIndex;
  } {
    const searchable: Record<string, TTool> = {};
    for (const [key, tool] of Object.entries(tools)) {
      if (!(META_TOOL_NAMES as readonly string[]).includes(key))
        Object.defineProperty(searchable, key, { value: tool, enumerable: true });
    }
    // A request's tools come from outside (an MCP server, a dynamic tools function): one bad tool
    // must not fail the request, so a duplicate is skipped and reported instead of thrown.
    const catalog = buildCatalog(searchable, this.options.describe, 'resolved tools', (error) => {
      try {
        this.options.onError?.({ threadId: undefined, operation: 'resolvedTools', error });
      } catch {
        // Telemetry must never break the agent.
      }
    });
    const fingerprint = fingerprintOf([...catalog.values()].map((entry) => entry.descriptor));
    let index = fingerprint === undefined ? undefined : this.#requestIndexes.get(fingerprint);
    if (index && fingerprint !== undefined) {
      this.#requestIndexes.delete(fingerprint);
    } else {
      index = new ToolIndex(
        [...catalog.values()].map((entry) => entry.descriptor),
        this.options.index,
      );
      if (this.#requestIndexes.size >= MAX_CACHED_REQUEST_INDEXES) {
        this.#requestIndexes.delete(this.#requestIndexes.keys().next().value!);
      }
    }
    if (fingerprint !== undefined) this.#requestIndexes.set(fingerprint, index);
    return { catalog, index };
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
 * Creates a {@link ToolSearchEngine}.
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

/** The descriptors' JSON, or `undefined` when it cannot be written (cycles, BigInt): then no reuse. */
function fingerprintOf(descriptors: readonly ToolDescriptor[]): string | undefined {
  try {
    return JSON.stringify(
      descriptors.map((descriptor) => [
        descriptor.id,
        descriptor.description,
        descriptor.keywords,
        descriptor.inputSchema,
      ]),
    );
  } catch {
    return undefined;
  }
}

/** Checks the fusion settings and fills in their defaults. */
function resolveFusion(settings: FusionSettings | undefined): ResolvedFusionSettings {
  const k = settings?.k ?? DEFAULT_RRF_K;
  if (!(Number.isFinite(k) && k >= 0))
    throw new RangeError(`ToolSearchEngine: fusion.k must be a finite number >= 0, got ${k}`);
  const textWeight = settings?.textWeight ?? 1;
  const vectorWeight = settings?.vectorWeight ?? 1;
  for (const [name, weight] of [
    ['textWeight', textWeight],
    ['vectorWeight', vectorWeight],
  ] as const) {
    if (!(Number.isFinite(weight) && weight >= 0))
      throw new RangeError(
        `ToolSearchEngine: fusion.${name} must be a finite number >= 0, got ${weight}`,
      );
  }
  if (textWeight + vectorWeight === 0)
    throw new RangeError(
      'ToolSearchEngine: fusion.textWeight and fusion.vectorWeight cannot both be 0',
    );
  const minSimilarity = settings?.minSimilarity ?? Number.NEGATIVE_INFINITY;
  if (Number.isNaN(minSimilarity))
    throw new RangeError('ToolSearchEngine: fusion.minSimilarity must be a number');
  const timeout = settings?.timeout ?? DEFAULT_EMBED_TIMEOUT;
  if (!(timeout > 0 && timeout <= MAX_TIMER_DELAY))
    throw new RangeError(
      `ToolSearchEngine: fusion.timeout must be > 0 and <= ${MAX_TIMER_DELAY} ms, got ${timeout}`,
    );
  const batchSize = settings?.batchSize ?? DEFAULT_EMBED_BATCH_SIZE;
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new RangeError(
      `ToolSearchEngine: fusion.batchSize must be an integer >= 1, got ${batchSize}`,
    );
  const kernel = settings?.kernel ?? 'auto';
  if (kernel !== 'auto' && kernel !== 'js')
    throw new TypeError(
      `ToolSearchEngine: fusion.kernel must be 'auto' or 'js', got ${String(kernel)}`,
    );
  const model = settings?.model;
  if (model !== undefined && typeof model !== 'string')
    throw new TypeError('ToolSearchEngine: fusion.model must be a string');
  return {
    k,
    textWeight,
    vectorWeight,
    minSimilarity,
    timeout,
    batchSize,
    kernel,
    ...(model !== undefined && { model }),
  };
}
