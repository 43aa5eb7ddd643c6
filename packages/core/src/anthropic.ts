// `tool-search-core/anthropic`: Anthropic's deferred loading (`defer_loading`, `tool_reference`)
// ranked by the index, as plain Messages API JSON; no SDK is imported.
export type {
  AnthropicToolDefinition,
  AnthropicToolReference,
  AnthropicToolResult,
  AnthropicToolSearch,
  AnthropicToolSearchOptions,
} from './native/anthropic-tool-search';
export {
  createAnthropicToolSearch,
  toolResultsFromAnthropicMessages,
} from './native/anthropic-tool-search';
