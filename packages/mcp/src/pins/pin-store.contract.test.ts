/**
 * The pin store contract, run against every store: memory, a file, and a real redis-server
 * (skipped with a notice where redis-server is not installed; CI has it).
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { redisPort } from '../test-utils/redis';
import { createFilePinStore } from './file-pin-store';
import type { HeldEntry, PinnedEntry, PinStore } from './pin-store';
import { createMemoryPinStore } from './pin-store';
import { definitionHash } from './pinned-definition';
import { createRedisPinStore } from './redis-pin-store';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const definition = (description: string) => ({
  name: 'echo',
  description,
  // An empty array and an empty object: a store that re-encoded them would change the hash.
  inputSchema: { type: 'object', properties: {}, required: [] as string[] },
});
const pinned = (description: string): PinnedEntry => ({
  hash: definitionHash(definition(description)),
  definition: definition(description),
  at: '2026-12-01T10:00:00.000Z',
});
const held = (description: string): HeldEntry => ({
  ...pinned(description),
  exposedName: 'fixture__echo',
  reason: 'changed',
});

const port = redisPort();
let redisRuns = 0;
const stores: [string, () => Promise<PinStore>][] = [
  ['memory', async () => createMemoryPinStore()],
  [
    'a file',
    async () => {
      const temp = await temporaryDir();
      cleanups.push(temp.remove);
      return createFilePinStore(join(temp.dir, 'nested', 'pins.json'));
    },
  ],
];
if (port > 0) {
  stores.push([
    'Redis',
    async () => {
      const client = new Redis({ port, lazyConnect: false });
      cleanups.push(() => client.quit());
      return createRedisPinStore({
        client,
        keyPrefix: `pins-contract-${process.pid}-${redisRuns++}:`,
      });
    },
  ]);
} else {
  console.warn('[pin-store] redis-server is not installed: the Redis pin store is not tested here');
}

describe.each(stores)('a pin store in %s', (_name, open) => {
  it('pins on first sight only, and a later pin of another definition changes nothing', async () => {
    const store = await open();
    expect(await store.load()).toEqual([]);
    const before = await store.version();
    expect(
      await store.update([{ type: 'pin', server: 's', tool: 'echo', entry: pinned('A') }]),
    ).toEqual([true]);
    expect(await store.version()).not.toBe(before);
    expect(
      await store.update([{ type: 'pin', server: 's', tool: 'echo', entry: pinned('B') }]),
    ).toEqual([false]);
    const [record] = await store.load();
    expect(record).toEqual({ server: 's', tool: 'echo', pinned: pinned('A') });
    expect(definitionHash(record!.pinned!.definition)).toBe(record!.pinned!.hash);
  });

  it('holds a definition, and approves only the one it holds', async () => {
    const store = await open();
    await store.update([{ type: 'pin', server: 's', tool: 'echo', entry: pinned('A') }]);
    await store.update([{ type: 'hold', server: 's', tool: 'echo', entry: held('B') }]);
    expect((await store.load())[0]?.held).toEqual(held('B'));
    // Held again with a newer definition: approving the one read before does nothing.
    await store.update([{ type: 'hold', server: 's', tool: 'echo', entry: held('C') }]);
    const stale = await store.update([
      { type: 'approve', server: 's', tool: 'echo', hash: held('B').hash },
    ]);
    expect(stale).toEqual([false]);
    const applied = await store.update([
      { type: 'approve', server: 's', tool: 'echo', hash: held('C').hash },
    ]);
    expect(applied).toEqual([true]);
    const [record] = await store.load();
    expect(record?.held).toBeUndefined();
    expect(record?.pinned?.hash).toBe(held('C').hash);
    expect(record?.pinned?.definition).toEqual(definition('C'));
  });

  it('releases a held definition only while it is still the one held', async () => {
    const store = await open();
    await store.update([{ type: 'hold', server: 's', tool: 'echo', entry: held('B') }]);
    expect(
      await store.update([{ type: 'release', server: 's', tool: 'echo', hash: held('C').hash }]),
    ).toEqual([false]);
    expect(
      await store.update([{ type: 'release', server: 's', tool: 'echo', hash: held('B').hash }]),
    ).toEqual([true]);
    expect((await store.load()).every((record) => record.held === undefined)).toBe(true);
  });

  it('keeps names that are JSON, prototype keys or separators apart', async () => {
    const store = await open();
    const names = [
      ['__proto__', 'constructor'],
      ['a', 'b","c'],
      ['a","b', 'c'],
      ['x\u0000y', 'z'],
    ] as const;
    await store.update(
      names.map(([server, tool]) => ({
        type: 'pin' as const,
        server,
        tool,
        entry: pinned(`${server}/${tool}`),
      })),
    );
    const records = await store.load();
    expect(records.map((record) => [record.server, record.tool]).sort()).toEqual(
      names.map((pair) => [...pair]).sort(),
    );
  });
});
