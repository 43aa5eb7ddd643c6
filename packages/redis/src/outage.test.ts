import {
  createToolSearchEngine,
  type LoadToolOutput,
  type SearchToolsOutput,
  type ToolSearchSession,
} from 'tool-search-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createRedisStore } from './create-redis-store';
import type { RedisClient } from './redis-client';
import { type CatalogTool, numberedCatalog, toolName } from './test-utils/catalog';
import { CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';
import { type RedisServer, startRedisServer } from './test-utils/redis-server';

const port = inject('redisPort');

/** The timeout of the store that meets a frozen Redis: short, so the test does not wait long. */
const IMPATIENT_TIMEOUT = 300;
/** The timeout everywhere else: long, so a busy CI machine never fails a call that should pass. */
const PATIENT_TIMEOUT = 10_000;
/** How long a test waits for a client to reconnect; only a broken reconnect takes this long. */
const RECONNECT_WAIT = 15_000;
const OUTAGE_TEST_TIMEOUT = 60_000;

function isReady(client: RedisClient): boolean {
  return 'status' in client ? client.status === 'ready' : client.isReady === true;
}

async function until(condition: () => boolean, limit = RECONNECT_WAIT): Promise<void> {
  const deadline = Date.now() + limit;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function engineOn(
  client: RedisClient,
  options: { keyPrefix: string; timeout: number; onError?: (event: { error: unknown }) => void },
) {
  return createToolSearchEngine<CatalogTool>({
    tools: numberedCatalog(20),
    describe: (tool, key) => ({ id: key, description: tool.description }),
    storage: createRedisStore({ client, keyPrefix: options.keyPrefix, timeout: options.timeout }),
    alwaysLoaded: [toolName(19)],
    ...(options.onError && { onError: options.onError }),
  });
}

const run = (session: ToolSearchSession<CatalogTool>, name: string, input: unknown) =>
  session.metaTools.find((tool) => tool.name === name)!.execute(input);
const activeIds = async (session: ToolSearchSession<CatalogTool>) =>
  (await session.activeTools()).map((tool) => tool.id);

describe.skipIf(port === 0).each(CLIENT_KINDS)('when Redis fails, with $name', (kind) => {
  let server: RedisServer;
  let connection: TestClient;

  beforeAll(async () => {
    // Its own server, with an append-only file: stopped and started again, it keeps its data.
    server = await startRedisServer({ persistent: true });
    connection = await kind.connect(server.port);
  });
  afterAll(async () => {
    await connection?.close();
    await server?.dispose();
  });

  it(
    'goes on with the meta-tools and pinned tools while Redis is down, and gets the loads back after',
    async () => {
      const onError = vi.fn();
      const engine = engineOn(connection.client, {
        keyPrefix: uniquePrefix('outage'),
        timeout: PATIENT_TIMEOUT,
        onError,
      });
      const step = () => engine.createSession({ threadId: 'conversation' });
      expect(
        ((await run(step(), 'load_tool', { toolName: toolName(1) })) as LoadToolOutput).success,
      ).toBe(true);
      expect(await activeIds(step())).toEqual([toolName(19), toolName(1)]);

      await server.stop();
      await until(() => !isReady(connection.client));
      const during = step();
      expect(await activeIds(during)).toEqual([toolName(19)]);
      expect(
        ((await run(during, 'search_tools', { query: 'numbered tool 2' })) as SearchToolsOutput)
          .results.length,
      ).toBeGreaterThan(0);
      const failed = (await run(during, 'load_tool', { toolName: toolName(2) })) as LoadToolOutput;
      expect(failed.success).toBe(false);
      expect(await during.isActive(toolName(19))).toBe(true);
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ operation: 'store.get' }));
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ operation: 'store.update' }));

      await server.start();
      await until(() => isReady(connection.client));
      expect(await activeIds(step())).toEqual([toolName(19), toolName(1)]);
      expect(
        ((await run(step(), 'load_tool', { toolName: toolName(2) })) as LoadToolOutput).success,
      ).toBe(true);
      expect(await activeIds(step())).toEqual([toolName(19), toolName(1), toolName(2)]);
    },
    OUTAGE_TEST_TIMEOUT,
  );

  it(
    'gives up on a Redis that does not answer after the timeout, and recovers when it does',
    async () => {
      const keyPrefix = uniquePrefix('paused');
      const patient = engineOn(connection.client, { keyPrefix, timeout: PATIENT_TIMEOUT });
      const onError = vi.fn();
      const impatient = engineOn(connection.client, {
        keyPrefix,
        timeout: IMPATIENT_TIMEOUT,
        onError,
      });
      const step = () => patient.createSession({ threadId: 'paused' });
      await run(step(), 'load_tool', { toolName: toolName(3) });

      server.pause();
      try {
        const during = impatient.createSession({ threadId: 'paused' });
        expect(await activeIds(during)).toEqual([toolName(19)]);
        expect(
          ((await run(during, 'load_tool', { toolName: toolName(4) })) as LoadToolOutput).success,
        ).toBe(false);
        expect(onError).toHaveBeenCalledWith(
          expect.objectContaining({ error: expect.objectContaining({ reason: 'timeout' }) }),
        );
      } finally {
        server.resume();
      }
      await until(() => isReady(connection.client));
      // The load that timed out never lands: its clock call came back past its deadline, so it
      // was not sent (and Redis would have refused it).
      expect(await activeIds(step())).toEqual([toolName(19), toolName(3)]);
    },
    OUTAGE_TEST_TIMEOUT,
  );
});
