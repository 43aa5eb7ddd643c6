// `tool-search-ai-sdk/openai`: OpenAI's deferred loading through `@ai-sdk/openai`, ranked by our
// index.
export type { NativeToolSearch, NativeToolSearchOptions } from './native/native-tool-search';
export type { OpenAINativeToolSearchOptions } from './native/openai-native-tool-search';
export { createOpenAINativeToolSearch } from './native/openai-native-tool-search';
