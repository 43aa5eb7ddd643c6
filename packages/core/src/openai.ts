// `tool-search-core/openai`: OpenAI's deferred loading (`defer_loading`, namespaces,
// `tool_search` run by the client) ranked by the index, as plain Responses API JSON; no SDK is
// imported.
export type { NamespaceOptions, OpenAINamespace } from './native/openai-namespaces';
export { assignNamespaces, DEFAULT_MAX_NAMESPACE_TOOLS } from './native/openai-namespaces';
export type {
  OpenAIFunctionDefinition,
  OpenAINamespaceDefinition,
  OpenAIToolDefinition,
  OpenAIToolSearch,
  OpenAIToolSearchDefinition,
  OpenAIToolSearchOptions,
  OpenAIToolSearchOutput,
} from './native/openai-tool-search';
export {
  createOpenAIToolSearch,
  loadedNames,
  toOpenAIDefinitions,
  toOpenAIFunction,
  toolResultsFromOpenAIInput,
} from './native/openai-tool-search';
