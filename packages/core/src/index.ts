export { contentHash } from './embedding/content-hash';
export type {
  EmbeddingFailure,
  EmbedFunction,
  FusionSettings,
} from './embedding/embed-function';
export { EmbeddingError } from './embedding/embed-function';
export { MAX_EMBEDDING_TEXT_LENGTH, toEmbeddingText } from './embedding/embedding-text';
export type { OpenAICompatibleEmbedOptions } from './embedding/openai-compatible-embed';
export { createOpenAICompatibleEmbed } from './embedding/openai-compatible-embed';
export type { SimilarityKernelPreference } from './embedding/similarity-kernel';
export type { VectorCacheOptions } from './embedding/vector-cache';
export { VectorCache } from './embedding/vector-cache';
export type {
  DeferredTool,
  DeferredToolFilter,
  DeferredToolFilterArgs,
  DeferredToolsArgs,
  DeferredToolsOptions,
  DeferredToolsSource,
} from './engine/deferred-tools';
export { ToolResolutionError } from './engine/deferred-tools';
export type { PreselectOptions, PreselectOutcome } from './engine/preselect';
export { preloadTools, preselectTools } from './engine/preselect';
export type { RequestCatalog, RequestTools, ResolvedTools } from './engine/request-catalogs';
export type {
  ResolvedEngineOptions,
  ResolvedFusionSettings,
  SessionEngine,
} from './engine/session-engine';
export { SnapshotDriftError } from './engine/snapshot-drift-error';
export { toToolRecord } from './engine/to-tool-record';
export type { CatalogEntry, ToolCatalog } from './engine/tool-catalog';
export { createToolSearchEngine, ToolSearchEngine } from './engine/tool-search-engine';
export { ToolSearchSession } from './engine/tool-search-session';
export type {
  ActiveTool,
  DenialReason,
  ExposeMode,
  FilterPhase,
  MetaTool,
  SearchSettings,
  SessionInit,
  ToolDefinition,
  ToolFilter,
  ToolFilterArgs,
  ToolOffer,
  ToolResultRecord,
  ToolRun,
  ToolSearchEngineOptions,
  ToolSearchEvents,
  ToolSearchMode,
} from './engine/types';
export {
  CALL_TOOL_NAME,
  DEFAULT_TOOL_SEARCH_THRESHOLD,
  META_TOOL_NAMES,
  RESERVED_TOOL_NAMES,
} from './engine/types';
export type { ArgumentProblem, ArgumentRefusalReason } from './meta-tools/argument-check';
export { UncheckedArgumentsError } from './meta-tools/argument-check';
export { echoName, echoQuery, MAX_ECHOED_NAME } from './meta-tools/echo-name';
export type { HostEntry, MetaToolHost, MetaToolSettings } from './meta-tools/meta-tool-host';
export type {
  CallToolInput,
  CallToolOutcome,
  CallToolRefusal,
  LoadToolInput,
  LoadToolOutput,
  SearchToolsInput,
  SearchToolsOutput,
  SearchToolsResult,
  UnloadToolInput,
  UnloadToolOutput,
} from './meta-tools/meta-tool-schemas';
export {
  callToolInput,
  loadToolInput,
  searchToolsInput,
  unloadToolInput,
} from './meta-tools/meta-tool-schemas';
export {
  catalogInstructions,
  MAX_RESULT_DESCRIPTION,
  toolSearchInstructions,
} from './meta-tools/meta-tool-texts';
export { estimateTokens, toolWeight } from './meta-tools/tool-weight';
export type { ListNativeToolsOptions, NativeCatalog } from './native/native-catalog';
export { listNativeTools, toObjectSchema } from './native/native-catalog';
export type { NativeSearchResult } from './native/search-and-load';
export {
  NATIVE_SEARCH_DESCRIPTION,
  NATIVE_SEARCH_PARAMETERS,
  NATIVE_SEARCH_TOOL_NAME,
  searchAndLoad,
  toActivationRecord,
} from './native/search-and-load';
export { MAX_QUERY_LENGTH } from './search/parsed-query';
export type { FusedResult, WeightedRanking } from './search/reciprocal-rank-fusion';
export { DEFAULT_RRF_K, fuseRankings } from './search/reciprocal-rank-fusion';
export type { SnapshotErrorReason } from './search/snapshot-ranking';
export { SnapshotError } from './search/snapshot-ranking';
export { stem } from './search/stemmer';
export { DEFAULT_STOP_WORDS } from './search/stop-words';
export type { CjkSegmentation, Tokenizer, TokenizerOptions } from './search/tokenizer';
export { createTokenizer, normalizeText, splitIdentifier } from './search/tokenizer';
export type { JSONSchema, SchemaText, SearchHit, ToolDescriptor } from './search/tool-descriptor';
export { extractSchemaText } from './search/tool-descriptor';
export type { IndexChanges, SearchOptions } from './search/tool-index';
export { ToolIndex } from './search/tool-index';
export type { FieldName, ToolIndexOptions } from './search/tool-index-options';
export {
  DEFAULT_B,
  DEFAULT_EXACT_ID_BOOST,
  DEFAULT_FIELD_WEIGHTS,
  DEFAULT_K1,
  DEFAULT_WORD_ID_BOOST,
} from './search/tool-index-options';
export { applyLoadedToolsOperation } from './state/apply-loaded-tools-operation';
export { deriveLoadedToolNames } from './state/context-state';
export type {
  LoadedToolEntry,
  LoadedToolsChange,
  LoadedToolsOperation,
  LoadedToolsState,
  LoadedToolsStore,
} from './state/loaded-tools-store';
export type { MemoryStore, MemoryStoreOptions, StateStats } from './state/memory-store';
export { createMemoryStore, DEFAULT_MAX_THREADS, DEFAULT_TTL } from './state/memory-store';
export { StoreError } from './state/store-error';
