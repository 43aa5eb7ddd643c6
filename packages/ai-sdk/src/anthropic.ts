// `tool-search-ai-sdk/anthropic`: Anthropic's deferred loading through `@ai-sdk/anthropic`,
// ranked by our index.
export { createAnthropicNativeToolSearch } from './native/anthropic-native-tool-search';
export type {
  NativeApproval,
  NativeApprovalInput,
  NativeStepResult,
  NativeToolSearch,
  NativeToolSearchOptions,
} from './native/native-tool-search';
