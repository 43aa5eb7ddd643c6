/** Connects the store's supported clients to a test Redis. */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import {
  recommendedIoRedisOptions,
  recommendedNodeRedisOptions,
} from '../recommended-client-options';
import type { RedisClient } from '../redis-client';

/** A connected client and how to close it. */
export interface TestClient {
  client: RedisClient;
  close(): Promise<void>;
}

/** One supported client library. */
export interface ClientKind {
  name: 'ioredis' | 'node-redis';
  connect(port: number): Promise<TestClient>;
}

export const CLIENT_KINDS: ClientKind[] = [
  {
    name: 'ioredis',
    async connect(port) {
      const client = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        ...recommendedIoRedisOptions,
      });
      // Failed reconnects are expected in the outage tests; without a listener ioredis logs each.
      client.on('error', () => {});
      await client.connect();
      return { client, close: async () => void client.disconnect() };
    },
  },
  {
    name: 'node-redis',
    async connect(port) {
      const client = createClient({
        socket: { port, host: '127.0.0.1' },
        ...recommendedNodeRedisOptions,
      });
      // node-redis emits 'error' on every failed reconnect; without a listener that would throw.
      client.on('error', () => {});
      await client.connect();
      return { client, close: async () => void client.destroy() };
    },
  },
];

/** A plain ioredis client for looking at keys from the outside. */
export function adminClient(port: number): Redis {
  return new Redis({ port, host: '127.0.0.1' });
}

/** A key prefix no other test uses. */
export function uniquePrefix(label: string): string {
  return `test-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
}
