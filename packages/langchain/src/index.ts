export { describeTool } from './describe-tool';
export { embedWithEmbeddings } from './embed-with-embeddings';
export { toolResultsFromMessages } from './tool-results';
export type { ToolSearchMiddlewareOptions } from './tool-search-middleware';
export { toolSearchMiddleware } from './tool-search-middleware';
export type { LangChainTool, ToolSearchOptions, ToolSearchRuntime } from './tool-search-options';
export type { ToolSearchSelector } from './tool-search-selector';
export { createToolSearchSelector } from './tool-search-selector';
