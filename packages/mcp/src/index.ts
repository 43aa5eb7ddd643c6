export { CALL_TOOL_NAME } from 'tool-search-core';
export type { MainContext } from './cli/main';
export { DEFAULT_TOKEN_ENV, main } from './cli/main';
export { GatewayConfigError } from './config/config-error';
export type {
  DefinitionPinsConfig,
  EmbeddingsConfig,
  ExposeMode,
  GatewayConfig,
  HttpUpstreamConfig,
  RedisStorageConfig,
  StdioUpstreamConfig,
  StorageConfig,
  ToolSearchConfig,
  TracingConfig,
  UpstreamConfig,
} from './config/gateway-config';
export { isHttpUpstream } from './config/gateway-config';
export { isToolAllowed, matchesGlob } from './config/glob';
export type { ParsedGatewayConfig, ParseGatewayConfigOptions } from './config/parse-gateway-config';
export { loadGatewayConfig, parseGatewayConfig } from './config/parse-gateway-config';
export type { CreateGatewayFromConfigOptions } from './gateway/create-gateway-from-config';
export { createGatewayFromConfig } from './gateway/create-gateway-from-config';
export type {
  ConfiguredEmbeddings,
  CreateEmbedFromConfigOptions,
} from './gateway/embeddings-from-config';
export { createEmbedFromConfig, embeddingsModelName } from './gateway/embeddings-from-config';
export type { GatewayStorage, OpenGatewayStorageOptions } from './gateway/gateway-storage';
export { openGatewayStorage } from './gateway/gateway-storage';
export type { ListCacheHint } from './gateway/list-cache-hint';
export { GATEWAY_LIST_TTL } from './gateway/list-cache-hint';
export type { GatewayHttpServer, ServeGatewayHttpOptions } from './gateway/serve-http';
export { DEFAULT_MAX_HTTP_SESSIONS, isLoopbackHost, serveGatewayHttp } from './gateway/serve-http';
export { serveGatewayStdio } from './gateway/serve-stdio';
export type {
  GatewaySessionOptions,
  ToolSearchGatewayOptions,
} from './gateway/tool-search-gateway';
export { createToolSearchGateway, ToolSearchGateway } from './gateway/tool-search-gateway';
export type { NamedToolRef } from './names/exposed-name';
export {
  assignExposedNames,
  EXPOSED_NAME_SEPARATOR,
  MAX_EXPOSED_NAME_LENGTH,
  toExposedName,
} from './names/exposed-name';
export type { DefinitionPinsOptions, NewToolPolicy, ScreenedTool } from './pins/definition-pins';
export { DefinitionPins } from './pins/definition-pins';
export { createFilePinStore } from './pins/file-pin-store';
export type { PinLocation } from './pins/pin-location';
export { PIN_FILE_NAME, pinLocationOf } from './pins/pin-location';
export type { HeldEntry, PinChange, PinnedEntry, PinRecord, PinStore } from './pins/pin-store';
export { createMemoryPinStore, PinStoreError } from './pins/pin-store';
export type { PinnedFields } from './pins/pinned-definition';
export { definitionHash, pinnedFieldsOf } from './pins/pinned-definition';
export type { PinRedisClient, RedisPinStoreOptions } from './pins/redis-pin-store';
export { createRedisPinStore } from './pins/redis-pin-store';
export type { OtlpTraceSettings, SamplerName } from './tracing/otlp-trace-settings';
export { otlpTraceSettingsFromEnv } from './tracing/otlp-trace-settings';
export type {
  StartedGatewayTracing,
  StartGatewayTracingOptions,
} from './tracing/start-gateway-tracing';
export { startGatewayTracing } from './tracing/start-gateway-tracing';
export type { GatewayTracing } from './tracing/traced-tool-calls';
export type { ListCacheHints } from './upstream/list-cache-hints';
export type { CachedManifest, ManifestCache } from './upstream/manifest-cache';
export { createManifestCache, defaultCacheDir, manifestKey } from './upstream/manifest-cache';
export type { RestartBackoff, UpstreamStatus } from './upstream/upstream-connection';
export { UpstreamError } from './upstream/upstream-connection';
export type {
  GatewayTool,
  UpstreamManagerOptions,
  UpstreamState,
} from './upstream/upstream-manager';
export {
  ALWAYS_LOAD_META_KEY,
  createUpstreamManager,
  DEFAULT_CALL_TIMEOUT,
  DEFAULT_CONNECT_TIMEOUT,
  listUpstreamTools,
  UpstreamManager,
} from './upstream/upstream-manager';
