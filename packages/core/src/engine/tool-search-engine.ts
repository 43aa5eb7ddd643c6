import type { ToolDescriptor } from '../search/tool-descriptor';
import { ToolIndex } from '../search/tool-index';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import { createMemoryStore, type MemoryStore, type StateStats } from '../state/memory-store';
import {
  type RequestCatalog,
  RequestCatalogs,
  type RequestTools,
  ResolvedTools,
} from './request-catalogs';
import { ToolSearchSession } from './tool-search-session';
import { META_TOOL_NAMES, type SessionInit, type ToolSearchEngineOptions } from './types';

/** A catalog tool with the descriptor it is indexed by. */
export interface CatalogEntry<TTool> {
  key: string;
  tool: TTool;
  descriptor: ToolDescriptor;
}

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
  readonly #requestCatalogs: RequestCatalogs<TTool>;

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
    this.index =
      options.snapshot === undefined
        ? new ToolIndex(
            [...this.catalog.values()].map((entry) => entry.descriptor),
            options.index,
          )
        : indexFromSnapshot(options.snapshot, this.catalog, options);
    this.#requestCatalogs = new RequestCatalogs({
      describe: options.describe,
      indexOptions: options.index,
      build: (tools, describe, skip) => buildCatalog(tools, describe, 'resolved tools', skip),
    });
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

/**
 * The catalog's index restored from a snapshot: refused (thrown) when the bytes or the ranking
 * options are wrong, rebuilt from the catalog (and reported) when the tools differ.
 */
function indexFromSnapshot<TTool, TContext>(
  snapshot: Uint8Array,
  catalog: ReadonlyMap<string, CatalogEntry<TTool>>,
  options: ToolSearchEngineOptions<TTool, TContext>,
): ToolIndex {
  // The engine's options, defaults included: request-resolved tools are ranked with them too.
  const index = ToolIndex.fromSnapshot(snapshot, options.index ?? {});
  const missing = [...catalog.keys()].filter((id) => !index.has(id));
  const extra = index.size - (catalog.size - missing.length);
  if (missing.length === 0 && extra === 0) return index;
  const examples = missing.slice(0, 3).map((id) => JSON.stringify(id));
  const error = new Error(
    `ToolSearchEngine: the index snapshot does not match the catalog (${missing.length} catalog tools are not in it${
      examples.length > 0 ? `, such as ${examples.join(', ')}` : ''
    }; ${extra} of its tools are not in the catalog). The catalog was indexed instead; rebuild the snapshot.`,
  );
  try {
    options.onError?.({ threadId: undefined, operation: 'snapshot', error });
  } catch {
    // Telemetry must never break the agent.
  }
  return new ToolIndex(
    [...catalog.values()].map((entry) => entry.descriptor),
    options.index,
  );
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
