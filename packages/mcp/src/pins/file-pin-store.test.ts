import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { createFilePinStore } from './file-pin-store';
import { PinStoreError } from './pin-store';
import { definitionHash } from './pinned-definition';

const entryOf = (name: string) => {
  const definition = { name, description: `The ${name} tool` };
  return { hash: definitionHash(definition), definition, at: new Date().toISOString() };
};

describe('createFilePinStore', () => {
  it('writes atomically, readable by its owner only, and leaves no temporary file', async () => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'pins.json');
      const store = createFilePinStore(file);
      await store.update([{ type: 'pin', server: 's', tool: 'echo', entry: entryOf('echo') }]);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readdir(temp.dir)).toEqual(['pins.json']);
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
        format: 1,
        tools: [{ server: 's', tool: 'echo' }],
      });
    } finally {
      await temp.remove();
    }
  });

  it('loses no change when writers race (each change is made under the lock, on the latest file)', async () => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'pins.json');
      // Two stores on one file stand for the gateway and `approve`, or two gateways.
      const [first, second] = [createFilePinStore(file), createFilePinStore(file)];
      await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          (index % 2 === 0 ? first : second).update([
            { type: 'pin', server: 's', tool: `tool_${index}`, entry: entryOf(`tool_${index}`) },
          ]),
        ),
      );
      expect((await first.load()).length).toBe(40);
      expect(await readdir(temp.dir)).toEqual(['pins.json']);
    } finally {
      await temp.remove();
    }
  });

  it('takes over a lock left by a writer that died, and gives up on a live one with a reason', async () => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'pins.json');
      const store = createFilePinStore(file);
      await writeFile(`${file}.lock`, '12345\n');
      const old = new Date(Date.now() - 60_000);
      await utimes(`${file}.lock`, old, old);
      await store.update([{ type: 'pin', server: 's', tool: 'echo', entry: entryOf('echo') }]);
      expect((await store.load()).length).toBe(1);
      await writeFile(`${file}.lock`, '12345\n');
      const refused = await store
        .update([{ type: 'pin', server: 's', tool: 'other', entry: entryOf('other') }])
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(PinStoreError);
      expect((refused as Error).message).toMatch(
        /pins\.json\.lock has been held by another process/,
      );
    } finally {
      await temp.remove();
    }
  }, 20_000);

  it.each([
    ['not JSON', '{"format": 1, "tools": [', /is damaged: not JSON/],
    ['of another format', '{"format": 9, "tools": []}', /"format" is 9, not 1/],
    [
      'with a record that is not one',
      '{"format": 1, "tools": [{"server": 1}]}',
      /tools\[0\] needs "server" and "tool" strings/,
    ],
    [
      'with a bad hash',
      '{"format": 1, "tools": [{"server": "s", "tool": "t", "pinned": {"hash": "x", "definition": {"name": "t"}, "at": ""}}]}',
      /tools\[0\]\.pinned: "hash" is not a SHA-256/,
    ],
    ['that is an array', '[]', /not a JSON object/],
  ])('refuses a file %s with the reason, and never writes over it', async (_case, text, reason) => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'pins.json');
      await writeFile(file, text);
      const store = createFilePinStore(file);
      await expect(store.load()).rejects.toThrow(reason);
      await expect(
        store.update([{ type: 'pin', server: 's', tool: 'echo', entry: entryOf('echo') }]),
      ).rejects.toBeInstanceOf(PinStoreError);
      expect(await readFile(file, 'utf8')).toBe(text);
      expect(await readdir(temp.dir)).toEqual(['pins.json']);
    } finally {
      await temp.remove();
    }
  });

  it('reads a missing file as no pins, and a folder in its place as unreadable', async () => {
    const temp = await temporaryDir();
    try {
      expect(await createFilePinStore(join(temp.dir, 'none.json')).load()).toEqual([]);
      await expect(createFilePinStore(temp.dir).load()).rejects.toThrow(
        /cannot be read \(EISDIR\)/,
      );
    } finally {
      await temp.remove();
    }
  });
});
