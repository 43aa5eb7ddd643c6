export { describeMastraTool } from './describe-mastra-tool';
export { threadIdOf } from './thread-id-of';
export { ToolSearchProcessor } from './tool-search-processor';
export type {
  AnyMastraTool,
  ToolSearchFilterArgs,
  ToolSearchFilterPhase,
  ToolSearchProcessorOptions,
} from './tool-search-processor-options';
