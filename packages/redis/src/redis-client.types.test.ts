import type { Cluster, Redis } from 'ioredis';
import type { createClient, createCluster } from 'redis';
import type { LoadedToolsStore } from 'tool-search-core';
import { describe, expectTypeOf, it } from 'vitest';
import type { RedisStore } from './create-redis-store';
import type { RedisClient } from './redis-client';

describe('RedisClient', () => {
  it('accepts ioredis and node-redis clients, standalone and cluster', () => {
    expectTypeOf<Redis>().toExtend<RedisClient>();
    expectTypeOf<Cluster>().toExtend<RedisClient>();
    expectTypeOf<ReturnType<typeof createClient>>().toExtend<RedisClient>();
    expectTypeOf<ReturnType<typeof createCluster>>().toExtend<RedisClient>();
    expectTypeOf<{ get: () => void }>().not.toExtend<RedisClient>();
  });

  it('makes a store the core accepts as storage', () => {
    expectTypeOf<RedisStore>().toExtend<LoadedToolsStore>();
  });
});
