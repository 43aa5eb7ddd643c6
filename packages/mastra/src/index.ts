export { describeMastraTool } from './describe-mastra-tool';
export type { AnyEmbeddingModel, MastraEmbedder } from './embed-with-embedder';
export { embedWithEmbedder } from './embed-with-embedder';
export { threadIdOf } from './thread-id-of';
export { ToolSearchProcessor } from './tool-search-processor';
export type {
  AnyMastraTool,
  ClassifierPreselect,
  DeferredTool,
  DeferredToolFilterArgs,
  IndexPreselect,
  PreselectClassifier,
  ToolSearchFilterArgs,
  ToolSearchFilterPhase,
  ToolSearchPreselect,
  ToolSearchProcessorOptions,
} from './tool-search-processor-options';
