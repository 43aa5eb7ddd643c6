export type { RankTools } from './create-rank-tools';
export { createRankTools } from './create-rank-tools';
export type {
  CreatePrepareStepOptions,
  MetaToolName,
  PrepareStepInput,
  ToolSearch,
  ToolSearchOptions,
  ToolSearchStepResult,
  ToolSearchToolName,
  UserPrepareStep,
} from './create-tool-search';
export { createToolSearch } from './create-tool-search';
export { describeAiTool } from './describe-ai-tool';
export type { EmbedMany } from './embed-with-model';
export { embedWithModel } from './embed-with-model';
export { toolResultsFromMessages } from './tool-results-from-messages';
