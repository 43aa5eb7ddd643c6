import type { Searchable, ToolEmbeddings } from '../embedding/tool-embeddings';
import type { ToolDescriptor } from '../search/tool-descriptor';
import type { ToolIndex } from '../search/tool-index';
import type { LoadedToolsChange, LoadedToolsOperation } from '../state/loaded-tools-store';
import type { FilterPhase } from './filter-phase';
import type { CallToolOutcome } from './meta-tool-schemas';
import type {
  DenialReason,
  ExposeMode,
  MetaTool,
  ToolRun,
  ToolSearchEvents,
} from './meta-tool-types';

/** A tool of the request, as the meta-tools see it: its key, the tool, and its descriptor. */
export interface HostEntry<TTool> {
  key: string;
  tool: TTool;
  descriptor: ToolDescriptor;
}

/** The engine's settings the meta-tools read (its resolved options). */
export interface MetaToolSettings<TTool, TContext> extends Pick<ToolSearchEvents, 'onSearch'> {
  topK: number;
  minScore: number;
  autoLoad: boolean;
  /** How many results of a proxy search carry their definitions. */
  definitions: number;
  unloadTool?: boolean | undefined;
  alwaysLoaded?: readonly string[] | undefined;
  maxLoadedTools?: number | undefined;
  runTool?: ((run: ToolRun<TTool, TContext>) => unknown) | undefined;
  /** How `search_tools` fuses BM25F's ranking with the embeddings' (see `FusionSettings`). */
  fusion: { k: number; textWeight: number; vectorWeight: number; minSimilarity: number };
}

/**
 * What the meta-tools need of one request: the narrow face of a `ToolSearchSession` (which
 * satisfies it), so that the meta-tools sit below the engine and never import it.
 * @typeParam TTool - the framework's tool type
 * @typeParam TContext - the request context a filter reads
 */
export interface MetaToolHost<TTool, TContext> {
  readonly threadId: string | undefined;
  readonly requestContext: TContext | undefined;
  readonly expose: ExposeMode;
  readonly settings: MetaToolSettings<TTool, TContext>;
  /** The meta-tools offered to this request (`call_tool` refuses to run one of them). */
  readonly metaTools: readonly MetaTool[];
  /** The engine's embeddings, when it has `embed`. */
  readonly embeddings: ToolEmbeddings | undefined;
  /** The indexes searched for this request: static first, then request-resolved and deferred. */
  readonly indexes: readonly ToolIndex[];
  /** What the request ranks by meaning, in the order of `indexes`. */
  readonly searchables: readonly Searchable<unknown>[];
  /** Whether a static id is hidden by a request-resolved tool of the same id. */
  isShadowed(id: string, index: ToolIndex): boolean;
  /** The static or request-resolved tool a name (an id or a key) stands for. */
  lookup(name: string): HostEntry<TTool> | undefined;
  /** Every static and request-resolved tool id of the request. */
  knownIds(): Iterable<string>;
  /** The id a name stands for, deferred tools (once fetched) included. */
  idOf(name: string): string | undefined;
  /** The descriptor a name stands for, deferred tools' metadata (once fetched) included. */
  descriptorOf(name: string): ToolDescriptor | undefined;
  /** Fetches the request's deferred tools when `names` (or a search) need them. */
  prepareDeferred(names?: Iterable<string>): Promise<void>;
  /** Why a deferred tool could not be resolved in this request, if it was tried and failed. */
  resolutionError(id: string): Error | undefined;
  /** Asks the filter, once per tool and phase in this request. */
  allows(name: string, phase: FilterPhase): Promise<boolean>;
  /** The tool a name stands for when the model may run it now; reports it otherwise, unless `quiet`. */
  activeTool(
    name: string,
    options?: { quiet?: boolean },
  ): Promise<(HostEntry<TTool> & { id: string }) | undefined>;
  /** Reports a refusal to the operator. */
  deny(toolName: string, phase: FilterPhase | 'execute', reason: DenialReason): void;
  /** Calls an event handler; a handler that throws is ignored. */
  emit<TName extends keyof ToolSearchEvents>(
    name: TName,
    event: Parameters<NonNullable<ToolSearchEvents[TName]>>[0],
  ): void;
  /** Applies an operation to the request's loaded tools; a store failure throws `StoreError`. */
  applyOperation(operation: LoadedToolsOperation): Promise<LoadedToolsChange>;
  /** Runs a loaded tool, as `call_tool` does. */
  callTool(call: unknown, callOptions?: unknown): Promise<CallToolOutcome>;
}
