import fc from 'fast-check';
import type { Redis } from 'ioredis';
import {
  applyLoadedToolsOperation,
  createToolSearchEngine,
  type LoadedToolEntry,
  type LoadedToolsOperation,
  type LoadToolOutput,
} from 'tool-search-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createRedisStore, type RedisStoreOptions } from './create-redis-store';
import { numberedCatalog, toolName } from './test-utils/catalog';
import { adminClient, CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';

const port = inject('redisPort');

/** How long a test waits for Redis to expire a key: far above the ttl, so only a bug fails it. */
const EXPIRY_WAIT = 15_000;
/** The store timeout in these tests: a busy CI machine must never turn a slow answer into a failure. */
const PATIENT_TIMEOUT = 10_000;

const patientStore = (options: RedisStoreOptions) =>
  createRedisStore({ timeout: PATIENT_TIMEOUT, ...options });

/** A limit for tests that make hundreds of round trips, for a busy 2-core CI machine. */
const MANY_ROUND_TRIPS_TIMEOUT = 60_000;

/** Commands that change a key, as MONITOR shows them (scripts' own calls included). */
const WRITE_COMMANDS = new Set(['set', 'del', 'pexpire', 'expire']);

/**
 * Watches a Redis's writes through MONITOR: `settled()` answers each write command since the
 * start with its key, once a marker sent after them has come through (MONITOR is in order).
 */
async function watchWrites(
  redisPort: number,
): Promise<{ settled(): Promise<string[][]>; stop(): void }> {
  const watcher = adminClient(redisPort);
  const monitor = await watcher.monitor();
  const writes: string[][] = [];
  const markers = new Set<string>();
  monitor.on('monitor', (_time: string, args: string[]) => {
    const command = args[0]?.toLowerCase() ?? '';
    if (command === 'echo') markers.add(args[1] ?? '');
    else if (WRITE_COMMANDS.has(command)) writes.push([command, args[1] ?? '']);
  });
  return {
    async settled() {
      const marker = `settled-${Math.random()}`;
      await watcher.echo(marker);
      await waitFor(async () => markers.has(marker), EXPIRY_WAIT);
      return writes;
    },
    stop() {
      monitor.disconnect();
      watcher.disconnect();
    },
  };
}

async function waitFor(condition: () => Promise<boolean>, limit: number): Promise<boolean> {
  const deadline = Date.now() + limit;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe('createRedisStore options', () => {
  const client = { evalsha: async () => '[]', eval: async () => '[]', status: 'ready' };

  it('rejects a key prefix with braces, a bad ttl or timeout, and a client it cannot use', () => {
    expect(() => createRedisStore({ client, keyPrefix: 'app{1}:' })).toThrow(/keyPrefix/);
    expect(() => createRedisStore({ client, ttl: -1 })).toThrow(/ttl/);
    expect(() => createRedisStore({ client, ttl: 1.5 })).toThrow(/ttl/);
    expect(() => createRedisStore({ client, timeout: 0 })).toThrow(/timeout/);
    expect(() => createRedisStore({ client, onLateChange: 'log' as never })).toThrow(
      /onLateChange/,
    );
    expect(() => createRedisStore({ client: {} as never })).toThrow(/ioredis.*node-redis/);
    expect(() => createRedisStore(undefined as never)).toThrow(/options/);
  });

  it('keeps every key of a thread in one Cluster hash slot, behind the prefix', () => {
    const store = createRedisStore({ client, keyPrefix: 'app:' });
    expect(store.keyOf('thread-1')).toBe('app:{thread-1}:tools');
    expect(createRedisStore({ client }).keyOf('t')).toBe('tool-search:{t}:tools');
  });

  it('refuses to send while the client says it is reconnecting', async () => {
    const evalsha = vi.fn(async () => '[]');
    const store = createRedisStore({ client: { ...client, evalsha, status: 'reconnecting' } });
    await expect(store.get('t')).rejects.toMatchObject({ reason: 'not-connected' });
    expect(evalsha).not.toHaveBeenCalled();
  });
});

describe.skipIf(port === 0).each(CLIENT_KINDS)('createRedisStore with $name', (kind) => {
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

  it(
    'applies every operation exactly as the core reference does',
    async () => {
      const store = patientStore({ client: connection.client, keyPrefix: uniquePrefix('ref') });
      const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', '__proto__');
      const at = fc.integer({ min: 1_700_000_000_000, max: 1_700_000_000_020 });
      const operation: fc.Arbitrary<LoadedToolsOperation> = fc.oneof(
        fc.record({
          type: fc.constant('load' as const),
          ids: fc.uniqueArray(id, { minLength: 1, maxLength: 4 }),
          at,
          maxLoadedTools: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        }),
        fc.record({ type: fc.constant('unload' as const), ids: fc.array(id, { maxLength: 3 }) }),
        fc.record({ type: fc.constant('touch' as const), id, at }),
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { maxLength: 15 }), async (operations) => {
          const threadId = `run-${run++}`;
          const expected: LoadedToolEntry[] = [];
          for (const next of operations) {
            const change = await store.update(threadId, next);
            expect(change).toEqual(applyLoadedToolsOperation(expected, next));
            expect((await store.get(threadId))?.tools ?? []).toEqual(expected);
          }
        }),
        { numRuns: 30 },
      );
    },
    MANY_ROUND_TRIPS_TIMEOUT,
  );

  it('stores odd ids and fractional times exactly', async () => {
    const store = patientStore({ client: connection.client, keyPrefix: uniquePrefix('odd') });
    const ids = [
      '__proto__',
      'constructor',
      'quote"back\\slash/slash',
      '天気予報',
      'emoji 🧰',
      '{brace}',
      'x'.repeat(2_000),
    ];
    const at = 1_712_345_678_901.5;
    const change = await store.update('odd', { type: 'load', ids, at });
    expect(change.loaded).toEqual(ids);
    expect(await store.get('odd')).toEqual({ tools: ids.map((id) => ({ id, usedAt: at })) });
  });

  it('refreshes the expiry on every use, and deletes a thread that becomes empty', async () => {
    const store = patientStore({
      client: connection.client,
      keyPrefix: uniquePrefix('ttl'),
      ttl: 60_000,
    });
    const key = store.keyOf('t');
    await store.update('t', { type: 'load', ids: ['a'], at: 1 });
    expect(await admin.pttl(key)).toBeGreaterThan(30_000);
    await admin.pexpire(key, 5_000);
    await store.get('t');
    expect(await admin.pttl(key)).toBeGreaterThan(30_000);
    await admin.pexpire(key, 5_000);
    await store.update('t', { type: 'touch', id: 'a', at: 2 });
    expect(await admin.pttl(key)).toBeGreaterThan(30_000);
    await store.update('t', { type: 'unload', ids: ['a'] });
    expect(await admin.exists(key)).toBe(0);
    expect(await store.get('t')).toBeUndefined();
  });

  it(
    'lets Redis expire an idle thread, leaving no keys behind',
    async () => {
      const keyPrefix = uniquePrefix('expire');
      const store = patientStore({ client: connection.client, keyPrefix, ttl: 2_000 });
      await store.update('t1', { type: 'load', ids: ['a', 'b'], at: 1 });
      await store.update('t2', { type: 'load', ids: ['c'], at: 1 });
      expect(await admin.keys(`${keyPrefix}*`)).toHaveLength(2);
      expect(
        await waitFor(async () => (await admin.keys(`${keyPrefix}*`)).length === 0, EXPIRY_WAIT),
      ).toBe(true);
      expect(await store.get('t1')).toBeUndefined();
    },
    MANY_ROUND_TRIPS_TIMEOUT,
  );

  it('writes nothing for a change that changes nothing', async () => {
    const store = patientStore({
      client: connection.client,
      keyPrefix: uniquePrefix('no-op'),
      ttl: 0,
    });
    const writes = await watchWrites(port);
    try {
      // A thread that never loaded anything: unloads, touches and an empty load make no key.
      await store.update('never', { type: 'unload', ids: ['a'] });
      await store.update('never', { type: 'touch', id: 'a', at: 5 });
      await store.update('never', { type: 'load', ids: [], at: 5 });
      // A thread that holds `a`: loading or touching it again at no later time changes nothing.
      await store.update('holds', { type: 'load', ids: ['a'], at: 10 });
      await store.update('holds', { type: 'load', ids: ['a'], at: 3 });
      await store.update('holds', { type: 'touch', id: 'a', at: 10 });
      await store.update('holds', { type: 'unload', ids: ['b'] });
      await store.update('holds', { type: 'touch', id: 'a', at: 11 });
      expect(await writes.settled()).toEqual([
        ['set', store.keyOf('holds')],
        ['set', store.keyOf('holds')],
      ]);
    } finally {
      writes.stop();
    }
    expect(await admin.exists(store.keyOf('never'))).toBe(0);
    expect(await store.get('holds')).toEqual({ tools: [{ id: 'a', usedAt: 11 }] });
  });

  it('keeps a thread forever with ttl 0', async () => {
    const store = patientStore({
      client: connection.client,
      keyPrefix: uniquePrefix('forever'),
      ttl: 0,
    });
    await store.update('t', { type: 'load', ids: ['a'], at: 1 });
    await store.get('t');
    expect(await admin.pttl(store.keyOf('t'))).toBe(-1);
  });

  it('separates applications that share a Redis by key prefix', async () => {
    const first = patientStore({ client: connection.client, keyPrefix: uniquePrefix('app-a') });
    const second = patientStore({
      client: connection.client,
      keyPrefix: uniquePrefix('app-b'),
    });
    await first.update('shared-id', { type: 'load', ids: ['a'], at: 1 });
    await second.update('shared-id', { type: 'load', ids: ['b'], at: 1 });
    expect((await first.get('shared-id'))?.tools.map((entry) => entry.id)).toEqual(['a']);
    expect((await second.get('shared-id'))?.tools.map((entry) => entry.id)).toEqual(['b']);
    await first.delete('shared-id');
    expect(await first.get('shared-id')).toBeUndefined();
    expect(await second.get('shared-id')).toBeDefined();
    expect(await admin.exists(first.keyOf('shared-id'), second.keyOf('shared-id'))).toBe(1);
  });

  it('sets a whole state at once, keeping the first of duplicate ids', async () => {
    const store = patientStore({ client: connection.client, keyPrefix: uniquePrefix('set') });
    await store.set('t', {
      tools: [
        { id: 'b', usedAt: 2 },
        { id: 'a', usedAt: 1 },
        { id: 'b', usedAt: 9 },
      ],
    });
    expect(await store.get('t')).toEqual({
      tools: [
        { id: 'b', usedAt: 2 },
        { id: 'a', usedAt: 1 },
      ],
    });
    await store.set('t', { tools: [] });
    expect(await store.get('t')).toBeUndefined();
  });

  it('loads its script again after Redis forgets it', async () => {
    const store = patientStore({
      client: connection.client,
      keyPrefix: uniquePrefix('noscript'),
    });
    await store.update('t', { type: 'load', ids: ['a'], at: 1 });
    await admin.script('FLUSH');
    expect((await store.update('t', { type: 'load', ids: ['b'], at: 2 })).loaded).toEqual(['b']);
  });

  it('answers the model and reports Redis errors when a key is not ours', async () => {
    const keyPrefix = uniquePrefix('wrongtype');
    const store = patientStore({ client: connection.client, keyPrefix });
    await admin.hset(store.keyOf('t'), 'field', 'value');
    const onError = vi.fn();
    const engine = createToolSearchEngine({
      tools: numberedCatalog(3),
      describe: (tool, key) => ({ id: key, description: tool.description }),
      storage: store,
      onError,
    });
    const session = engine.createSession({ threadId: 't' });
    const load = session.metaTools.find((tool) => tool.name === 'load_tool')!;
    const output = (await load.execute({ toolName: toolName(0) })) as LoadToolOutput;
    expect(output.success).toBe(false);
    expect(await session.activeTools()).toEqual([]);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({
        operation: 'store.update',
        error: expect.objectContaining({ message: expect.stringMatching(/WRONGTYPE/) }),
      }),
    );
  });

  it(
    'loses no load when two engines with their own connections load into one thread at once',
    async () => {
      const keyPrefix = uniquePrefix('two-clients');
      const other = await kind.connect(port);
      try {
        const engines = [connection, other].map((each) =>
          createToolSearchEngine({
            tools: numberedCatalog(100),
            describe: (tool, key) => ({ id: key, description: tool.description }),
            storage: patientStore({ client: each.client, keyPrefix }),
          }),
        );
        const names = Array.from({ length: 100 }, (_, index) => toolName(index));
        const outputs = await Promise.all(
          names.map((name, index) => {
            const session = engines[index % 2]!.createSession({ threadId: 't' });
            return session.metaTools
              .find((tool) => tool.name === 'load_tool')!
              .execute({
                toolName: name,
              }) as Promise<LoadToolOutput>;
          }),
        );
        expect(outputs.every((output) => output.success)).toBe(true);
        const [first, second] = await Promise.all(
          engines.map(async (engine) =>
            (await engine.createSession({ threadId: 't' }).activeTools()).map((tool) => tool.id),
          ),
        );
        expect(first).toHaveLength(100);
        expect(new Set(first)).toEqual(new Set(names));
        expect(second).toEqual(first);
      } finally {
        await other.close();
      }
    },
    MANY_ROUND_TRIPS_TIMEOUT,
  );
});
