import type { FilterPhase } from '../meta-tools/filter-phase';
import { META_TOOL_NAMES } from '../meta-tools/meta-tool-names';
import type { JSONSchema, ToolDescriptor } from '../search/tool-descriptor';
import type { ToolIndexOptions } from '../search/tool-index-options';
import { type RequestCatalog, RequestCatalogs } from './request-catalogs';
import { buildCatalog } from './tool-catalog';

/**
 * A tool known by its metadata until it is loaded: search ranks the metadata, and `resolve`
 * builds the real tool (an MCP connector's tool with the caller's credentials, say) only when the
 * model loads it, once per session, for that session's request alone.
 * @typeParam TTool - the tool type `resolve` returns
 */
export interface DeferredTool<TTool> {
  /** The name the model sees and loads the tool by (the key it is listed under when empty). */
  id: string;
  /** What the tool does, written for a model; searched. */
  description?: string;
  /** The input schema when the metadata has it: parameter names and descriptions are searched. */
  inputSchema?: JSONSchema;
  /** Extra search words. */
  keywords?: string[];
  /**
   * Builds the real tool. Called when the tool is loaded, and at each later step that offers it
   * (a revoked credential withdraws the tool at the next step); a throw or rejection means the
   * tool cannot be loaded now.
   */
  resolve: (args: { requestContext: unknown }) => TTool | Promise<TTool>;
}

/** What a deferred catalog source is asked with: the request it lists tools for. */
export interface DeferredToolsArgs<TContext> {
  requestContext: TContext | undefined;
}

/**
 * Lists the deferred tools of a request, keyed like `tools` (the key is a second name for the
 * tool when it differs from the id). Called at most once per session, and only when the session
 * needs the list: a search, a load of a name that no other tool has, a loaded tool that is not
 * one of the static tools, or a catalog listing.
 */
export type DeferredToolsSource<TTool, TContext> = (
  args: DeferredToolsArgs<TContext>,
) =>
  | Readonly<Record<string, DeferredTool<TTool>>>
  | Promise<Readonly<Record<string, DeferredTool<TTool>>>>;

/** What `deferredFilter` is asked about: a deferred tool's metadata, never the real tool. */
export interface DeferredToolFilterArgs<TTool, TContext> {
  toolName: string;
  tool: DeferredTool<TTool>;
  requestContext: TContext | undefined;
  phase: FilterPhase;
}

/**
 * Request-aware policy over deferred tools' metadata, asked before anything is resolved: in the
 * `search` phase it is the only check (the engine's `filter` only ever sees real tools), in the
 * `load` and `active` phases it runs before `resolve`, and the engine's `filter` then checks the
 * resolved tool. `false`, a throw, a rejection or a timeout mean "not allowed".
 */
export type DeferredToolFilter<TTool, TContext> = (
  args: DeferredToolFilterArgs<TTool, TContext>,
) => boolean | Promise<boolean>;

/** The engine options for tools resolved only when loaded. */
export interface DeferredToolsOptions<TTool, TContext> {
  /**
   * A catalog of tool metadata per request, whose real tools are built only when loaded. Ids
   * must not repeat a static or request-resolved tool's id or key, nor a meta-tool's name: a
   * search or load that meets one throws.
   */
  deferredTools?: DeferredToolsSource<TTool, TContext>;
  /** Policy over the deferred tools' metadata (see {@link DeferredToolFilter}). */
  deferredFilter?: DeferredToolFilter<TTool, TContext>;
}

/**
 * A deferred tool whose `resolve` failed, or returned no tool. `load_tool` rethrows it, so the
 * framework reports the application's own error as it reports a failing tool.
 */
export class ToolResolutionError extends Error {
  /** The id of the tool that could not be resolved. */
  readonly toolName: string;

  constructor(toolName: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Tool "${toolName}" could not be loaded: ${reason}`, { cause });
    this.name = 'ToolResolutionError';
    this.toolName = toolName;
  }
}

/**
 * @internal The engine's cache of deferred catalogs: a request whose metadata objects (or their
 * content) were seen before reuses their catalog and index, so a source that lists hundreds of
 * tools per request costs one pass over its record, not a new index, at each step.
 */
export class DeferredCatalogs<TTool> {
  readonly #catalogs: RequestCatalogs<DeferredTool<TTool>>;

  constructor(indexOptions: ToolIndexOptions | undefined) {
    this.#catalogs = new RequestCatalogs<DeferredTool<TTool>>({
      describe: describeDeferredTool,
      indexOptions,
      // The source is the application's own configuration, like `tools`: a conflict throws.
      build: (tools, describe) => buildCatalog(tools, describe, 'deferred tools'),
    });
  }

  /** The catalog and index of one request's deferred tools; throws on a malformed or ambiguous record. */
  resolve(
    tools: Readonly<Record<string, DeferredTool<TTool>>>,
  ): RequestCatalog<DeferredTool<TTool>> {
    if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
      throw new TypeError('ToolSearchEngine: deferredTools must return a record of deferred tools');
    }
    // A request catalog skips keys named like a meta-tool; here that is a configuration error.
    for (const key of Object.keys(tools)) {
      if ((META_TOOL_NAMES as readonly string[]).includes(key)) {
        throw new Error(
          `ToolSearchEngine: the deferred tool under key "${key}" uses a reserved meta-tool name (${META_TOOL_NAMES.join(', ')}); rename it.`,
        );
      }
    }
    return this.#catalogs.resolve(tools, (error) => {
      throw error;
    });
  }
}

/** Describes deferred metadata for the index; metadata without `resolve` is refused. */
function describeDeferredTool<TTool>(tool: DeferredTool<TTool>, key: string): ToolDescriptor {
  if (tool === null || typeof tool !== 'object' || typeof tool.resolve !== 'function') {
    throw new TypeError(
      `ToolSearchEngine: the deferred tool under key "${key}" needs a \`resolve\` function`,
    );
  }
  const id = typeof tool.id === 'string' && tool.id !== '' ? tool.id : key;
  return {
    id,
    description: typeof tool.description === 'string' ? tool.description : '',
    ...(tool.inputSchema !== null &&
      typeof tool.inputSchema === 'object' && { inputSchema: tool.inputSchema }),
    ...(Array.isArray(tool.keywords) && {
      keywords: tool.keywords.filter((word): word is string => typeof word === 'string'),
    }),
  };
}
