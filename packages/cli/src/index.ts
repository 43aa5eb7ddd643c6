export type { ExitCode } from './cli/cli-error';
export { CliError, EXIT_CODES, UsageError } from './cli/cli-error';
export type { TerminalStream } from './cli/cli-io';
export type { EmbeddingsFlagValues, EmbeddingsSetup } from './cli/embeddings-flags';
export { EMBEDDINGS_ENV, readEmbeddingsFlags } from './cli/embeddings-flags';
export type { CliContext } from './cli/main';
export { main } from './cli/main';
export { splitCommand } from './cli/split-command';
export type {
  EvalMetrics,
  EvalReport,
  EvaluateCatalogFusedOptions,
  EvaluateCatalogOptions,
  RelevantRank,
  WorstQuery,
} from './eval/evaluate-catalog';
export {
  DEFAULT_WORST,
  evaluateCatalog,
  evaluateCatalogFused,
  RANK_SEARCH_DEPTH,
} from './eval/evaluate-catalog';
export { ndcgAt, recallAt, reciprocalRankAt } from './eval/metrics';
export type { FunctionDefinition } from './inspect/count-tokens';
export { countJsonTokens, metaToolDefinitions, toFunctionDefinition } from './inspect/count-tokens';
export type { Finding, InspectCatalogOptions, InspectReport } from './inspect/inspect-catalog';
export { DEFAULT_MIN_DESCRIPTION_TERMS, inspectCatalog } from './inspect/inspect-catalog';
export type { NearDuplicatePair } from './inspect/near-duplicates';
export { DEFAULT_DUPLICATE_THRESHOLD, findNearDuplicates } from './inspect/near-duplicates';
export type { FieldMatch } from './search/explain-match';
export { createMatchExplainer } from './search/explain-match';
export type {
  ExplainedHit,
  FusedSearchResult,
  SearchCatalogOptions,
} from './search/search-catalog';
export { DEFAULT_SEARCH_TOP_K, searchCatalog, searchCatalogFused } from './search/search-catalog';
export type { Catalog, CatalogTool, LabelledQuery } from './source/catalog';
export { toDescriptor } from './source/catalog';
export type { CatalogFile } from './source/read-catalog-file';
export { parseCatalogJson, readCatalogFile } from './source/read-catalog-file';
export type { ConfigCatalog, LiveSourceOptions } from './source/read-mcp-catalog';
export {
  DEFAULT_MCP_SERVER_NAME,
  readConfigCatalog,
  readMcpCatalog,
} from './source/read-mcp-catalog';
