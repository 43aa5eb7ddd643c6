import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { createManifestCache, defaultCacheDir, manifestKey } from './manifest-cache';

const tool = { name: 'echo', description: 'Echo', inputSchema: { type: 'object' as const } };

describe('createManifestCache', () => {
  it('reads back what it wrote, per config entry, and keeps secrets out of the file', async () => {
    const temp = await temporaryDir();
    try {
      const cache = createManifestCache(join(temp.dir, 'nested'));
      const entry = { command: 'node', args: ['server.js'], env: { TOKEN: 'secret-value' } };
      expect(await cache.read(entry)).toBeUndefined();
      await cache.write(entry, [tool]);
      expect(await cache.read(entry)).toEqual([tool]);
      expect(await cache.read({ ...entry, args: ['other.js'] })).toBeUndefined();
      const files = await readdir(join(temp.dir, 'nested'));
      expect(files).toEqual([`${manifestKey(entry)}.json`]);
    } finally {
      await temp.remove();
    }
  });

  it('treats a corrupt or foreign file as no manifest', async () => {
    const temp = await temporaryDir();
    try {
      const cache = createManifestCache(temp.dir);
      const entry = { url: 'http://127.0.0.1:1/mcp' };
      await writeFile(join(temp.dir, `${manifestKey(entry)}.json`), '{"format":1,"tools":[{}]}');
      expect(await cache.read(entry)).toBeUndefined();
      await writeFile(join(temp.dir, `${manifestKey(entry)}.json`), 'not json');
      expect(await cache.read(entry)).toBeUndefined();
    } finally {
      await temp.remove();
    }
  });
});

describe('manifestKey', () => {
  it('depends on what starts the server, not on key order or tool rules', () => {
    const key = manifestKey({ command: 'node', args: ['a'], env: { A: '1', B: '2' } });
    expect(
      manifestKey({ env: { B: '2', A: '1' }, args: ['a'], command: 'node', denyTools: ['x'] }),
    ).toBe(key);
    expect(manifestKey({ command: 'node', args: ['a'], env: { A: '1', B: '3' } })).not.toBe(key);
    expect(manifestKey({ url: 'https://h/mcp' })).not.toBe(
      manifestKey({ url: 'https://h/mcp', headers: { A: 'b' } }),
    );
  });
});

describe('defaultCacheDir', () => {
  it('uses $XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/tool-search-mcp');
    expect(defaultCacheDir({ HOME: '/home/u' })).toMatch(/\.cache\/tool-search-mcp$/);
  });
});
