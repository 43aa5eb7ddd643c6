/**
 * Regression tests for the bugs the model-based property tests found in the Redis store, as
 * small fixed examples that fail without the fix.
 */
import { createToolSearchEngine, type LoadToolOutput } from 'tool-search-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedisStore } from './create-redis-store';
import { CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';

const port = inject('redisPort');
/** Generous: a busy CI machine must never turn a slow answer into a failure. */
const PATIENT_TIMEOUT = 10_000;

describe.skipIf(port === 0).each(CLIENT_KINDS)(
  'ids that are not well-formed Unicode, with $name',
  (kind) => {
    let connection: TestClient;
    beforeAll(async () => {
      connection = await kind.connect(port);
    });
    afterAll(async () => {
      await connection.close();
    });

    it('keep two threads that differ only in a lone surrogate apart, by refusing them', async () => {
      const store = createRedisStore({
        client: connection.client,
        keyPrefix: uniquePrefix('surrogate-thread'),
        timeout: PATIENT_TIMEOUT,
      });
      await expect(
        store.update('t\uD800', { type: 'load', ids: ['get_weather'], at: 1 }),
      ).rejects.toThrow(/well-formed/);
      await expect(store.get('t\uDC00')).rejects.toThrow(/well-formed/);
      expect(await store.get('t\uFFFD')).toBeUndefined();
    });

    it('never loads one tool as another whose id differs only in a lone surrogate', async () => {
      const store = createRedisStore({
        client: connection.client,
        keyPrefix: uniquePrefix('surrogate-tool'),
        timeout: PATIENT_TIMEOUT,
      });
      const engine = createToolSearchEngine<{ description: string }>({
        tools: {
          'x\uD800': { description: 'broken id' },
          'x\uFFFD': { description: 'replacement' },
        },
        describe: (tool, key) => ({ id: key, description: tool.description }),
        storage: store,
      });
      const session = engine.createSession({ threadId: 'thread' });
      const load = session.metaTools.find((tool) => tool.name === 'load_tool')!;
      const output = (await load.execute({ toolName: 'x\uD800' })) as LoadToolOutput;
      expect(output.success).toBe(false);
      expect((await session.activeTools()).map((tool) => tool.id)).toEqual([]);
    });
  },
);
