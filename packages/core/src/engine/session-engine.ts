import type { FusionSettings } from '../embedding/embed-function';
import type { ToolEmbeddings } from '../embedding/tool-embeddings';
import type { ExposeMode } from '../meta-tools/meta-tool-types';
import type { ToolIndex } from '../search/tool-index';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import type { DeferredCatalogs } from './deferred-tools';
import type { RequestCatalog, RequestTools } from './request-catalogs';
import type { CatalogEntry, ToolCatalog } from './tool-catalog';
import type { ToolSearchEngineOptions } from './types';

/** The fusion settings with their defaults applied. */
export type ResolvedFusionSettings = Required<Omit<FusionSettings, 'model'>> &
  Pick<FusionSettings, 'model'>;

/** An engine's options with their defaults applied, as its sessions read them. */
export type ResolvedEngineOptions<TTool, TContext> = Readonly<
  ToolSearchEngineOptions<TTool, TContext>
> & {
  topK: number;
  minScore: number;
  autoLoad: boolean;
  expose: ExposeMode;
  filterTimeout: number;
  fusion: ResolvedFusionSettings;
  /** `search.definitions`: how many results of a proxy search carry their definitions. */
  definitions: number;
  /**
   * `toolSearch` as a weight: the request's tools are given directly while they weigh less than
   * this many estimated tokens (`0`: always search; `Infinity`: never).
   */
  directBelow: number;
};

/**
 * What a session reads of its engine: the `ToolSearchEngine` satisfies it. A type of its own, so
 * that the session (which the engine creates) never imports the engine back.
 */
export interface SessionEngine<TTool, TContext = unknown> {
  /** Resolved options; read by sessions. */
  readonly options: ResolvedEngineOptions<TTool, TContext>;
  readonly index: ToolIndex;
  /** The static tools by id; `catalog.idOf(name)` also resolves the keys they are listed under. */
  readonly catalog: ReadonlyMap<string, CatalogEntry<TTool>> & Pick<ToolCatalog<TTool>, 'idOf'>;
  /** The store of thread state, or `undefined` under `storage: 'context'`. */
  readonly store: LoadedToolsStore | undefined;
  /** @internal Computes and caches vectors; `undefined` without `embed`. */
  readonly embeddings: ToolEmbeddings | undefined;
  /** @internal The catalogs of `deferredTools` metadata; `undefined` without the option. */
  readonly deferredCatalogs: DeferredCatalogs<TTool> | undefined;
  /** @internal The catalog and index of a request's resolved tools. */
  requestCatalog(
    tools: RequestTools<TTool> | readonly TTool[],
    keyOf?: (tool: TTool) => string,
  ): RequestCatalog<TTool>;
}
