/**
 * A change the store gave up on must never take effect later. Redis is paused for longer than the
 * store's timeout (`CLIENT PAUSE ... WRITE`, which holds every script call), at each point a call
 * can meet it: before the clock call, between the clock call and the change, or after Redis ran
 * the change (the answer held back): the first two leave the thread as it was, the last is
 * reported through `onLateChange`.
 */
import type { Redis } from 'ioredis';
import {
  createToolSearchEngine,
  type LoadedToolEntry,
  type LoadToolOutput,
  type ToolSearchSession,
  type UnloadToolOutput,
} from 'tool-search-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createRedisStore, type RedisLateChange, type RedisStore } from './create-redis-store';
import { LOADED_TOOLS_SCRIPT } from './loaded-tools-script';
import { type CatalogTool, numberedCatalog, toolName } from './test-utils/catalog';
import { adminClient, CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';
import { type CallHooks, type HookedClient, hookedClient } from './test-utils/hooked-client';

const port = inject('redisPort');

/** The figures: a 300 ms store timeout meets Redis paused for 800 ms. */
const STORE_TIMEOUT = 300;
const PAUSE_MS = 800;
/** How far apart the tests set this process's clock and Redis's. */
const HOUR = 3_600_000;
/** The store that checks the outcome: a busy CI machine must never fail its calls. */
const PATIENT_TIMEOUT = 10_000;
/** Operations that change a thread (the others are the clock call and reads). */
const CHANGES = new Set(['load', 'unload', 'touch', 'set', 'delete']);

const pauseRedis = (admin: Redis) => admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'WRITE');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Session = ToolSearchSession<CatalogTool>;
const run = <T>(session: Session, name: string, input: unknown) =>
  session.metaTools.find((tool) => tool.name === name)!.execute(input) as Promise<T>;
const activeIds = async (session: Session) => (await session.activeTools()).map((tool) => tool.id);

describe.skipIf(port === 0).each(CLIENT_KINDS)(
  'createRedisStore when a change times out, with $name',
  (kind) => {
    let connection: TestClient;
    let admin: Redis;

    beforeAll(async () => {
      connection = await kind.connect(port);
      admin = adminClient(port);
    });
    afterAll(async () => {
      await connection.close();
      admin.disconnect();
    });

    /** Two engines on one thread's keys: one with the short timeout (behind hooks), one patient. */
    function setup(hooks: CallHooks = {}) {
      const keyPrefix = uniquePrefix('timed-out');
      const hooked: HookedClient = hookedClient(connection.client, hooks);
      const onError = vi.fn();
      const onLoad = vi.fn();
      const onEvict = vi.fn();
      const onLateChange = vi.fn<(event: RedisLateChange) => void>();
      const store = createRedisStore({
        client: hooked.client,
        keyPrefix,
        timeout: STORE_TIMEOUT,
        onLateChange,
      });
      const patientStore = createRedisStore({
        client: connection.client,
        keyPrefix,
        timeout: PATIENT_TIMEOUT,
      });
      const engineOn = (storage: RedisStore) =>
        createToolSearchEngine<CatalogTool>({
          tools: numberedCatalog(10),
          describe: (tool, key) => ({ id: key, description: tool.description }),
          storage,
          maxLoadedTools: 2,
          unloadTool: true,
          onError,
          onLoad,
          onEvict,
        });
      const impatient = engineOn(store);
      const patient = engineOn(patientStore);
      return {
        hooked,
        store,
        patientStore,
        onError,
        onLoad,
        onEvict,
        onLateChange,
        impatient: () => impatient.createSession({ threadId: 'thread' }),
        patient: () => patient.createSession({ threadId: 'thread' }),
        /** The thread as stored, with each tool's last use. */
        stored: async () => (await patientStore.get('thread'))?.tools ?? [],
        /** Waits until the pause is over and every call the impatient store made has come back. */
        settle: async () => {
          await sleep(PAUSE_MS);
          await hooked.idle();
          // Every script call is held while the pause lasts: this one returns once it is over.
          await patientStore.get('other-thread');
        },
      };
    }

    /** Loads two tools (the budget) through the patient engine, `tool_001` used least recently. */
    async function loadTwo(world: ReturnType<typeof setup>): Promise<LoadedToolEntry[]> {
      await run(world.patient(), 'load_tool', { toolName: toolName(1) });
      await sleep(2);
      await run(world.patient(), 'load_tool', { toolName: toolName(2) });
      const before = await world.stored();
      expect(before.map((entry) => entry.id)).toEqual([toolName(1), toolName(2)]);
      world.onLoad.mockClear();
      return before;
    }

    it('answers that load_tool could not load while Redis is paused, and the load never lands after', async () => {
      const world = setup();
      const before = await loadTwo(world);

      await pauseRedis(admin);
      const output = await run<LoadToolOutput>(world.impatient(), 'load_tool', {
        toolName: toolName(3),
      });
      expect(output.success).toBe(false);
      expect(world.onError).toHaveBeenCalledWith(
        expect.objectContaining({
          operation: 'store.update',
          error: expect.objectContaining({ reason: 'timeout' }),
        }),
      );
      await world.settle();

      // Neither the load nor the eviction it would have made happened, and nothing says otherwise.
      expect(await world.stored()).toEqual(before);
      expect(await activeIds(world.patient())).toEqual([toolName(1), toolName(2)]);
      expect(world.onLoad).not.toHaveBeenCalled();
      expect(world.onEvict).not.toHaveBeenCalled();
      expect(world.onLateChange).not.toHaveBeenCalled();
      // The change itself was never sent: its clock call came back past the deadline.
      expect(world.hooked.answered.filter((call) => CHANGES.has(call.args[0]!))).toEqual([]);
    });

    /** Pauses Redis right before the first change goes out, after its clock call came back. */
    const pauseBeforeTheChange = (): CallHooks => {
      let paused = false;
      return {
        async beforeSend(args) {
          if (paused || !CHANGES.has(args[0]!)) return;
          paused = true;
          await pauseRedis(admin);
        },
      };
    };

    it('refuses a load that reaches Redis after its deadline, though Redis gave the clock in time', async () => {
      const world = setup(pauseBeforeTheChange());
      const before = await loadTwo(world);

      const output = await run<LoadToolOutput>(world.impatient(), 'load_tool', {
        toolName: toolName(3),
      });
      expect(output.success).toBe(false);
      await world.settle();

      // The script ran, saw its deadline past on Redis's clock, and changed nothing.
      const changes = world.hooked.answered.filter((call) => CHANGES.has(call.args[0]!));
      expect(changes.map((call) => [call.args[0], call.answer])).toEqual([['load', 'late']]);
      expect(await world.stored()).toEqual(before);
      expect(await activeIds(world.patient())).toEqual([toolName(1), toolName(2)]);
      expect(world.onEvict).not.toHaveBeenCalled();
      expect(world.onLateChange).not.toHaveBeenCalled();
    });

    it('refuses an unload and a touch that reach Redis after their deadlines', async () => {
      const unloadWorld = setup(pauseBeforeTheChange());
      const before = await loadTwo(unloadWorld);
      const unloaded = await run<UnloadToolOutput>(unloadWorld.impatient(), 'unload_tool', {
        toolNames: [toolName(1)],
      });
      expect(unloaded.success).toBe(false);
      await unloadWorld.settle();
      expect(await unloadWorld.stored()).toEqual(before);

      // A call marks the tool as used (a touch), which decides what the budget evicts next.
      const touchWorld = setup(pauseBeforeTheChange());
      const untouched = await loadTwo(touchWorld);
      expect(await touchWorld.impatient().isActive(toolName(1))).toBe(true);
      await touchWorld.settle();
      expect(await touchWorld.stored()).toEqual(untouched);
      // So tool_001 is still the least recently used, and the next load evicts it.
      const next = await run<LoadToolOutput>(touchWorld.patient(), 'load_tool', {
        toolName: toolName(3),
      });
      expect(next.evicted).toEqual([toolName(1)]);
      for (const world of [unloadWorld, touchWorld]) {
        const changes = world.hooked.answered.filter((call) => CHANGES.has(call.args[0]!));
        expect(changes.map((call) => call.answer)).toEqual(['late']);
        expect(world.onLateChange).not.toHaveBeenCalled();
      }
    });

    it('refuses a set and a delete (clearState) that reach Redis after their deadlines', async () => {
      const world = setup(pauseBeforeTheChange());
      const before = await loadTwo(world);
      await expect(
        world.store.set('thread', { tools: [{ id: toolName(5), usedAt: 1 }] }),
      ).rejects.toMatchObject({ reason: 'timeout' });
      await world.settle();
      expect(await world.stored()).toEqual(before);

      const cleared = setup(pauseBeforeTheChange());
      const kept = await loadTwo(cleared);
      const engine = createToolSearchEngine<CatalogTool>({
        tools: numberedCatalog(10),
        describe: (tool, key) => ({ id: key, description: tool.description }),
        storage: cleared.store,
      });
      await expect(engine.clearState('thread')).rejects.toMatchObject({ reason: 'timeout' });
      await cleared.settle();
      expect(await cleared.stored()).toEqual(kept);
      for (const { hooked } of [world, cleared]) {
        const changes = hooked.answered.filter((call) => CHANGES.has(call.args[0]!));
        expect(changes.map((call) => call.answer)).toEqual(['late']);
      }
    });

    it('reports a load that Redis applied in time when only its answer came back too late', async () => {
      let held = false;
      const world = setup({
        async beforeAnswer(args) {
          if (held || args[0] !== 'load') return;
          held = true;
          await sleep(PAUSE_MS);
        },
      });
      await loadTwo(world);

      const output = await run<LoadToolOutput>(world.impatient(), 'load_tool', {
        toolName: toolName(3),
      });
      expect(output.success).toBe(false);
      await world.settle();

      // The effect is there, and it is reported: what was loaded and what the budget evicted.
      expect((await world.stored()).map((entry) => entry.id)).toEqual([toolName(2), toolName(3)]);
      await vi.waitFor(() => expect(world.onLateChange).toHaveBeenCalledTimes(1));
      expect(world.onLateChange).toHaveBeenCalledWith({
        threadId: 'thread',
        operation: expect.objectContaining({ type: 'load', ids: [toolName(3)], maxLoadedTools: 2 }),
        change: { loaded: [toolName(3)], alreadyLoaded: [], evicted: [toolName(1)], unloaded: [] },
      });
    });

    it('keeps its deadlines with this process’s clock an hour ahead of Redis’s, or behind it', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        for (const skew of [HOUR, -HOUR]) {
          vi.setSystemTime(Date.now() + skew);
          // A change in time applies...
          const world = setup();
          await loadTwo(world);
          const output = await run<LoadToolOutput>(world.impatient(), 'load_tool', {
            toolName: toolName(3),
          });
          expect(output).toMatchObject({ success: true, evicted: [toolName(1)] });
          // ...and one that reaches Redis past its deadline does not.
          const late = setup(pauseBeforeTheChange());
          const before = await loadTwo(late);
          await run(late.impatient(), 'load_tool', { toolName: toolName(3) });
          await late.settle();
          expect(await late.stored()).toEqual(before);
          vi.setSystemTime(Date.now() - skew);
        }
      } finally {
        vi.useRealTimers();
      }
    });

    it('keeps the thread as it was through the calls the MCP gateway makes, one session per request', async () => {
      // The gateway answers each tools/call with a session of its own on the thread: load_tool,
      // then a call of a loaded tool (isActive, which touches it), then tools/list (activeTools).
      const world = setup(pauseBeforeTheChange());
      const before = await loadTwo(world);
      const failed = await run<LoadToolOutput>(world.impatient(), 'load_tool', {
        toolNames: [toolName(3), toolName(4)],
      });
      expect(failed.success).toBe(false);
      await world.settle();
      expect(await world.impatient().isActive(toolName(3))).toBe(false);
      expect(await world.impatient().isActive(toolName(2))).toBe(true);
      expect(await activeIds(world.impatient())).toEqual([toolName(1), toolName(2)]);
      const after = await world.stored();
      expect(after.map((entry) => entry.id)).toEqual(before.map((entry) => entry.id));
      expect(world.onLateChange).not.toHaveBeenCalled();
    });
  },
);

describe.skipIf(port === 0)('LOADED_TOOLS_SCRIPT past its deadline', () => {
  let admin: Redis;
  beforeAll(() => {
    admin = adminClient(port);
  });
  afterAll(() => {
    admin.disconnect();
  });

  it('changes nothing, not even the expiry, for every kind of change', async () => {
    const key = `${uniquePrefix('script')}{thread}:tools`;
    const value = '[["a",1],["b",2]]';
    const [seconds] = (await admin.call('TIME')) as [string, string];
    // A second ago on Redis's own clock, in microseconds.
    const past = String((Number(seconds) - 1) * 1_000_000);
    const calls: string[][] = [
      ['load', '60000', past, '3', '1', 'c', 'd'],
      ['unload', '60000', past, '0', '0', 'a'],
      ['touch', '60000', past, '3', '0', 'a'],
      ['set', '60000', past, '0', '0', 'x', '1'],
      ['delete', '60000', past],
    ];
    for (const args of calls) {
      await admin.set(key, value, 'PX', 30_000);
      expect(await admin.eval(LOADED_TOOLS_SCRIPT, 1, key, ...args)).toBe('late');
      expect(await admin.get(key)).toBe(value);
      // The expiry was not restarted either (60 s would be over 30 s).
      expect(await admin.pttl(key)).toBeLessThanOrEqual(30_000);
    }
    await admin.del(key);
  });
});
