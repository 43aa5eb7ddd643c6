import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { fixture, npmServer } from '../test-utils/servers';
import { createManifestCache } from './manifest-cache';
import { listUpstreamTools } from './upstream-manager';

describe('listUpstreamTools', () => {
  it('lists every upstream under its exposed names, reports failures, and fills the cache', async () => {
    const temp = await temporaryDir();
    try {
      const cache = createManifestCache(join(temp.dir, 'cache'));
      const servers = {
        memory: npmServer('memory', [], {
          env: { MEMORY_FILE_PATH: join(temp.dir, 'memory.jsonl') },
        }),
        'my tools': fixture([], { denyTools: ['crash', 'hang'] }),
        broken: fixture(['--mode', 'crash-on-start']),
      };
      const { tools, states } = await listUpstreamTools({ servers, cache, log: () => undefined });
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('memory__read_graph');
      expect(names).toContain('my_tools__echo');
      expect(names).not.toContain('my_tools__crash');
      expect(tools.find((tool) => tool.name === 'my_tools__echo')).toMatchObject({
        server: 'my tools',
        definition: { name: 'echo' },
      });
      expect(states.map((state) => [state.server, state.status, state.toolCount])).toEqual([
        ['memory', 'ready', 9],
        ['my tools', 'ready', 4],
        ['broken', 'failed', 0],
      ]);
      expect(await cache.read(servers.memory)).toHaveLength(9);
      expect(await cache.read(servers.broken)).toBeUndefined();
    } finally {
      await temp.remove();
    }
  });
});
