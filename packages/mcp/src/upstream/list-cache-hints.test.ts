/**
 * The 2026-07-28 cache hints of an upstream's tools/list (`ttlMs`, `cacheScope`), honoured by the
 * manifest cache: with real fixture upstreams whose starts are counted.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { fixture } from '../test-utils/servers';
import { listCacheHintsOf } from './list-cache-hints';
import { createManifestCache } from './manifest-cache';
import { listUpstreamTools } from './upstream-manager';

async function startsOf(file: string): Promise<number> {
  try {
    return (await readFile(file, 'utf8')).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe('the manifest cache and an upstream list’s ttlMs', () => {
  it.each([
    ['no hint', [], 1],
    ['ttlMs 60000', ['--list-ttl', '60000'], 1],
    ['ttlMs 0 ("stale at once")', ['--list-ttl', '0'], 2],
  ])(
    'with %s, a second run starts the upstream again only when the cached list has expired',
    async (_case, flags, expected) => {
      const temp = await temporaryDir();
      try {
        const starts = join(temp.dir, 'starts');
        const servers = { up: fixture(['--starts', starts, ...flags]) };
        const cache = createManifestCache(join(temp.dir, 'cache'));
        const first = await listUpstreamTools({ servers, cache, log: () => undefined });
        expect(first.tools.map((tool) => tool.name)).toContain('up__echo');
        const second = await listUpstreamTools({ servers, cache, log: () => undefined });
        expect(second.tools.map((tool) => tool.name)).toContain('up__echo');
        expect(await startsOf(starts)).toBe(expected);
      } finally {
        await temp.remove();
      }
    },
    60_000,
  );

  it('writes a list that is not cacheScope "public" readable by its owner only, and keeps the hints', async () => {
    const temp = await temporaryDir();
    try {
      const dir = join(temp.dir, 'cache');
      const cache = createManifestCache(dir);
      const servers = {
        private: fixture(['--list-ttl', '60000', '--list-scope', 'private']),
        public: fixture(['--list-scope', 'public', '--add-name', 'public-list']),
        none: fixture(['--add-name', 'no-hint']),
      };
      await listUpstreamTools({ servers, cache, log: () => undefined });
      const modes: Record<string, number> = {};
      for (const name of await readdir(dir)) {
        const manifest = JSON.parse(await readFile(join(dir, name), 'utf8'));
        modes[`${manifest.cacheScope ?? 'none'}/${manifest.ttlMs ?? '-'}`] =
          (await stat(join(dir, name))).mode & 0o777;
      }
      expect(modes).toEqual({ 'private/60000': 0o600, 'public/-': 0o644, 'none/-': 0o600 });
      expect(await cache.readManifest?.(servers.private)).toMatchObject({
        ttlMs: 60000,
        cacheScope: 'private',
      });
    } finally {
      await temp.remove();
    }
  }, 60_000);
});

describe('listCacheHintsOf', () => {
  it('keeps valid hints and ignores others, as the SDK does', () => {
    expect(listCacheHintsOf({ ttlMs: 1000, cacheScope: 'public' })).toEqual({
      ttlMs: 1000,
      cacheScope: 'public',
    });
    expect(listCacheHintsOf({ ttlMs: -1, cacheScope: 'shared' })).toEqual({});
    expect(listCacheHintsOf({ ttlMs: 1.5 })).toEqual({});
    expect(listCacheHintsOf({ ttlMs: '1000' })).toEqual({});
    expect(listCacheHintsOf(null)).toEqual({});
  });
});
