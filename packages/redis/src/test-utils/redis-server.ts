/**
 * The tests' redis-servers: the workspace's one implementation (tool-search-testing), which the
 * benchmark and the README smoke run also start theirs with.
 */
export {
  freePort,
  hasRedisServer,
  type RedisServer,
  type RedisServerOptions,
  startRedisServer,
} from 'tool-search-testing/redis-server';
