import type { FilterPhase } from '../meta-tools/filter-phase';
import type { DeferredCatalogs, DeferredTool, DeferredToolsOptions } from './deferred-tools';
import { ToolResolutionError } from './deferred-tools';
import type { RequestCatalog } from './request-catalogs';
import { runFilter } from './run-filter';
import { type CatalogEntry, idIn } from './tool-catalog';
import type { DenialReason, ToolSearchEvents } from './types';

/**
 * What a session's deferred tools read and call on their session (a `ToolSearchSession` is one):
 * named here, so that this file does not import the session that builds it.
 */
export interface DeferredToolsHost<TTool, TContext> {
  readonly threadId: string | undefined;
  readonly requestContext: TContext | undefined;
  readonly engine: {
    readonly options: Readonly<DeferredToolsOptions<TTool, TContext>> & {
      readonly filterTimeout: number;
    };
    readonly deferredCatalogs: DeferredCatalogs<TTool> | undefined;
  };
  /** The static or request-resolved tool a name stands for. */
  lookup(name: string): CatalogEntry<TTool> | undefined;
  /** Reports a refused tool (`onDenied`). */
  deny(toolName: string, phase: FilterPhase, reason: DenialReason): void;
  /** Reports an event to the engine's handlers. */
  emit<TName extends keyof ToolSearchEvents>(
    name: TName,
    event: Parameters<NonNullable<ToolSearchEvents[TName]>>[0],
  ): void;
}

/**
 * @internal One session's deferred tools: the request's metadata, fetched at most once and only
 * when needed, and the tools resolved from it, at most once per tool. Nothing here outlives the
 * session (one step of one request), so a resolved tool is never handed to another request, and a
 * credential revoked since the last step withdraws the tool at the next.
 */
export class SessionDeferredTools<TTool, TContext> {
  readonly #session: DeferredToolsHost<TTool, TContext>;
  #fetch: Promise<void> | undefined;
  #catalog: RequestCatalog<DeferredTool<TTool>> | undefined;
  readonly #resolutions = new Map<string, Promise<TTool | undefined>>();
  readonly #resolved = new Map<string, TTool>();
  readonly #failures = new Map<string, ToolResolutionError>();

  constructor(session: DeferredToolsHost<TTool, TContext>) {
    this.#session = session;
  }

  /** The request's deferred catalog and index, once fetched. */
  get catalog(): RequestCatalog<DeferredTool<TTool>> | undefined {
    return this.#catalog;
  }

  /**
   * Fetches the request's metadata once; rejects, every time, when the source failed or listed a
   * tool that would be ambiguous (a name another tool of the request already has).
   */
  fetch(): Promise<void> {
    this.#fetch ??= this.#load();
    return this.#fetch;
  }

  /** The deferred tool a name stands for (an id, or the key it is listed under), once fetched. */
  entry(name: string): CatalogEntry<DeferredTool<TTool>> | undefined {
    const catalog = this.#catalog?.catalog;
    const id = catalog && idIn(catalog, name);
    return id === undefined ? undefined : catalog!.get(id);
  }

  /** Asks `deferredFilter` about the metadata; allowed when there is none. */
  async allowsMetadata(id: string, phase: FilterPhase): Promise<boolean> {
    const { deferredFilter, filterTimeout } = this.#session.engine.options;
    const entry = this.entry(id);
    if (!entry) return false;
    if (!deferredFilter) return true;
    const verdict = await runFilter(
      deferredFilter,
      { toolName: id, tool: entry.tool, requestContext: this.#session.requestContext, phase },
      filterTimeout,
    );
    if (verdict.allowed) return true;
    this.#session.deny(id, phase, verdict.reason);
    if (verdict.error !== undefined)
      this.#session.emit('onError', {
        threadId: this.#session.threadId,
        operation: `deferredFilter:${phase}`,
        error: verdict.error,
      });
    return false;
  }

  /**
   * The real tool, resolved once for this session; `undefined` when `resolve` failed or returned
   * nothing (the error is kept, see {@link failure}, and reported through `onError`).
   */
  resolve(id: string): Promise<TTool | undefined> {
    let resolution = this.#resolutions.get(id);
    if (!resolution) {
      resolution = this.#resolve(id);
      this.#resolutions.set(id, resolution);
    }
    return resolution;
  }

  /** The tool resolved for this session, if it was. */
  resolved(id: string): TTool | undefined {
    return this.#resolved.get(id);
  }

  /** Why the tool could not be resolved in this session, if it could not. */
  failure(id: string): ToolResolutionError | undefined {
    return this.#failures.get(id);
  }

  async #load(): Promise<void> {
    const session = this.#session;
    const { deferredTools } = session.engine.options;
    try {
      const tools = await deferredTools!({ requestContext: session.requestContext });
      const catalog = session.engine.deferredCatalogs!.resolve(tools);
      for (const entry of catalog.catalog.values()) {
        for (const name of new Set([entry.descriptor.id, entry.key])) {
          const other = session.lookup(name);
          if (other) {
            throw new Error(
              `ToolSearchEngine: "${name}" is a duplicate deferred tool: the ${
                other.descriptor.id === name ? 'id' : 'key'
              } of a tool the request already has (key "${other.key}"). Rename one of them; a deferred tool must not replace another.`,
            );
          }
        }
      }
      this.#catalog = catalog;
    } catch (error) {
      session.emit('onError', { threadId: session.threadId, operation: 'deferredTools', error });
      throw error;
    }
  }

  async #resolve(id: string): Promise<TTool | undefined> {
    const session = this.#session;
    const entry = this.entry(id);
    if (!entry) return undefined;
    let failure: ToolResolutionError;
    try {
      const tool = await entry.tool.resolve({ requestContext: session.requestContext });
      if (tool !== null && (typeof tool === 'object' || typeof tool === 'function')) {
        this.#resolved.set(id, tool);
        return tool;
      }
      failure = new ToolResolutionError(id, new TypeError('resolve returned no tool'));
    } catch (error) {
      failure = new ToolResolutionError(id, error);
    }
    this.#failures.set(id, failure);
    session.emit('onError', {
      threadId: session.threadId,
      operation: 'deferredTools:resolve',
      error: failure,
    });
    return undefined;
  }
}
