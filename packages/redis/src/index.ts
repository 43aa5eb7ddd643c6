export type {
  RedisLateChange,
  RedisStore,
  RedisStoreConfig,
  RedisStoreOptions,
} from './create-redis-store';
export {
  createRedisStore,
  DEFAULT_KEY_PREFIX,
  DEFAULT_REDIS_TIMEOUT,
  DEFAULT_REDIS_TTL,
} from './create-redis-store';
export { LOADED_TOOLS_SCRIPT } from './loaded-tools-script';
export {
  recommendedIoRedisOptions,
  recommendedNodeRedisOptions,
} from './recommended-client-options';
export type { IoRedisClient, NodeRedisClient, RedisClient } from './redis-client';
export type { RedisStoreFailure } from './redis-store-error';
export { RedisStoreError } from './redis-store-error';
