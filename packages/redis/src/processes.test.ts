import { afterEach, describe, expect, inject, it } from 'vitest';
import { toolName } from './test-utils/catalog';
import { uniquePrefix } from './test-utils/clients';
import { type EngineProcess, startEngineProcess } from './test-utils/engine-process';

const port = inject('redisPort');

/** Starting two Node processes that load the core from source takes a few seconds on 2 cores. */
const PROCESS_TEST_TIMEOUT = 60_000;

describe.skipIf(port === 0)('two engine processes on one Redis', () => {
  let processes: EngineProcess[] = [];

  afterEach(async () => {
    await Promise.all(processes.map((each) => each.close()));
    processes = [];
  });

  async function startTwo(options: { maxLoadedTools?: number } = {}) {
    const keyPrefix = uniquePrefix('processes');
    processes = await Promise.all([
      startEngineProcess({ port, keyPrefix, ...options }),
      startEngineProcess({ port, keyPrefix, ...options }),
    ]);
    expect(processes[0]!.pid).not.toBe(processes[1]!.pid);
    return processes as [EngineProcess, EngineProcess];
  }

  it(
    'share one thread: what one loads or unloads, the other sees',
    async () => {
      const [first, second] = await startTwo();
      expect((await first.load('conversation', [toolName(1)]))[0]).toMatchObject({
        success: true,
      });
      expect(await second.active('conversation')).toEqual([toolName(1)]);
      expect((await second.load('conversation', [toolName(2)]))[0]).toMatchObject({
        success: true,
      });
      expect(await first.active('conversation')).toEqual([toolName(1), toolName(2)]);
      expect(await first.unload('conversation', [toolName(1)])).toMatchObject({
        unloaded: [toolName(1)],
      });
      expect(await second.active('conversation')).toEqual([toolName(2)]);
      expect(await second.active('another-conversation')).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    'lose none of 100 concurrent loads into one thread, and both see one order',
    async () => {
      const [first, second] = await startTwo();
      const names = Array.from({ length: 100 }, (_, index) => toolName(index));
      const results = await Promise.all([
        first.load(
          'busy',
          names.filter((_, index) => index % 2 === 0),
        ),
        second.load(
          'busy',
          names.filter((_, index) => index % 2 === 1),
        ),
      ]);
      expect(results.flat().every((result) => result.success === true)).toBe(true);
      const [seenByFirst, seenBySecond] = await Promise.all([
        first.active('busy'),
        second.active('busy'),
      ]);
      expect(seenByFirst).toHaveLength(100);
      expect(new Set(seenByFirst)).toEqual(new Set(names));
      expect(seenBySecond).toEqual(seenByFirst);
      expect([...first.errors(), ...second.errors()]).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    'keep the budget under concurrent loads: every tool is loaded once and evicted at most once',
    async () => {
      const [first, second] = await startTwo({ maxLoadedTools: 10 });
      const names = Array.from({ length: 100 }, (_, index) => toolName(index));
      const results = (
        await Promise.all([
          first.load('budget', names.slice(0, 50)),
          second.load('budget', names.slice(50)),
        ])
      ).flat();
      expect(results.every((result) => result.success === true)).toBe(true);
      const evicted = results.flatMap((result) => (result.evicted as string[] | undefined) ?? []);
      const active = await first.active('budget');
      expect(active).toHaveLength(10);
      expect(await second.active('budget')).toEqual(active);
      // Atomic updates: each eviction is reported once, and evicted plus active is every tool.
      expect(new Set(evicted).size).toBe(evicted.length);
      expect(evicted.filter((name) => active.includes(name))).toEqual([]);
      expect(new Set([...evicted, ...active])).toEqual(new Set(names));
    },
    PROCESS_TEST_TIMEOUT,
  );
});
