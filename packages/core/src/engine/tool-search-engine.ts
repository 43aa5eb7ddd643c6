import type { ToolDescriptor } from '../search/tool-descriptor';
import { ToolIndex } from '../search/tool-index';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import { createMemoryStore, type MemoryStore, type StateStats } from '../state/memory-store';
import { ToolSearchSession } from './tool-search-session';
import { META_TOOL_NAMES, type SessionInit, type ToolSearchEngineOptions } from './types';

/** A catalog tool with the descriptor it is indexed by. */
export interface CatalogEntry<TTool> {
  key: string;
  tool: TTool;
  descriptor: ToolDescriptor;
}

/** Per-request indexes kept for reuse, keyed by content: a request's tools repeat across its steps and callers. */
const MAX_CACHED_REQUEST_INDEXES = 32;
const DEFAULT_FILTER_TIMEOUT = 3_000;
const DEFAULT_TOP_K = 5;

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
  };
  readonly index: ToolIndex;
  readonly catalog: ReadonlyMap<string, CatalogEntry<TTool>>;
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
    this.options = {
      ...options,
      topK,
      minScore,
      autoLoad: options.search?.autoLoad ?? false,
      filterTimeout,
    };

    this.catalog = buildCatalog(options.tools, options.describe, 'tools');
    this.index = new ToolIndex(
      [...this.catalog.values()].map((entry) => entry.descriptor),
      options.index,
    );
    for (const id of options.alwaysLoaded ?? []) {
      if (!this.catalog.has(id)) {
        throw new Error(
          `ToolSearchEngine: alwaysLoaded names "${id}", which is not a tool id in \`tools\``,
        );
      }
    }

    const storage = options.storage ?? 'in-memory';
    if (storage === 'in-memory') {
      this.#memoryStore = createMemoryStore({
        ...(options.ttl !== undefined && { ttl: options.ttl }),
        ...(options.maxThreads !== undefined && { maxThreads: options.maxThreads }),
      });
      this.store = this.#memoryStore;
    } else if (storage === 'context') {
      this.store = undefined;
    } else if (typeof storage?.get === 'function' && typeof storage.set === 'function') {
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

function buildCatalog<TTool>(
  tools: Readonly<Record<string, TTool>>,
  describe: (tool: TTool, key: string) => ToolDescriptor,
  label: string,
  skip?: (error: Error) => void,
): Map<string, CatalogEntry<TTool>> {
  const catalog = new Map<string, CatalogEntry<TTool>>();
  for (const [key, tool] of Object.entries(tools)) {
    try {
      const entry = describeEntry(catalog, tool, key, describe, label);
      catalog.set(entry.descriptor.id, entry);
    } catch (error) {
      if (!skip) throw error;
      skip(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return catalog;
}

function describeEntry<TTool>(
  catalog: ReadonlyMap<string, CatalogEntry<TTool>>,
  tool: TTool,
  key: string,
  describe: (tool: TTool, key: string) => ToolDescriptor,
  label: string,
): CatalogEntry<TTool> {
  const descriptor = describe(tool, key);
  if (!descriptor || typeof descriptor.id !== 'string' || descriptor.id.trim() === '') {
    throw new TypeError(`ToolSearchEngine: the tool under key "${key}" in ${label} has no id`);
  }
  const previous = catalog.get(descriptor.id);
  if (previous) {
    throw new Error(
      `ToolSearchEngine: the tools under keys "${previous.key}" and "${key}" in ${label} share the id "${descriptor.id}". ` +
        'Ids must be unique because the model loads tools by id; rename one of them.',
    );
  }
  if ((META_TOOL_NAMES as readonly string[]).includes(descriptor.id)) {
    throw new Error(
      `ToolSearchEngine: "${descriptor.id}" in ${label} is a reserved meta-tool name; rename the tool`,
    );
  }
  return { key, tool, descriptor };
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
