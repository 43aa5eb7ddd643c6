import { describe, expect, it } from 'vitest';
import type { SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import type { ToolDescriptor } from '../search/tool-descriptor';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';

interface FakeTool {
  description: string;
}

/** An engine whose `describe` counts its calls per key. */
function countingEngine(onError?: (event: { operation: string; error: unknown }) => void) {
  const described: string[] = [];
  const engine = createToolSearchEngine<FakeTool>({
    tools: { send_email: { description: 'Send an email to a recipient' } },
    describe: (tool, key): ToolDescriptor => {
      described.push(key);
      return { id: key.replace(/_v\d$/, ''), description: tool.description };
    },
    ...(onError && { onError }),
  });
  return { engine, described };
}

function drive(count: number): Record<string, FakeTool> {
  const tools: Record<string, FakeTool> = {};
  for (let position = 0; position < count; position++) {
    tools[`drive_tool_${position}`] = { description: `Drive operation number ${position}` };
  }
  tools.drive_list_files = { description: 'List the files in a cloud drive folder' };
  return tools;
}

async function searchNames(session: ToolSearchSession<FakeTool>, query: string) {
  const tool = session.metaTools.find((candidate) => candidate.name === 'search_tools')!;
  const output = (await tool.execute({ query })) as SearchToolsOutput;
  return output.results.map((result) => result.name);
}

describe('request-resolved tools', () => {
  it('describes each tool object once while the same objects come back in new records', async () => {
    const { engine, described } = countingEngine();
    const tools = drive(50);
    described.length = 0;
    const first = engine.createSession({ resolvedTools: { ...tools } });
    expect(described).toHaveLength(51);
    for (let step = 0; step < 5; step++) {
      const session = engine.createSession({ resolvedTools: { ...tools } });
      expect(session.indexes[1]).toBe(first.indexes[1]);
      expect(await searchNames(session, 'list drive files')).toContain('drive_list_files');
    }
    expect(described).toHaveLength(51);
  });

  it('describes again only the tool object that changed, and indexes the new content', async () => {
    const { engine, described } = countingEngine();
    const tools = drive(20);
    const first = engine.createSession({ resolvedTools: tools });
    described.length = 0;
    const changed = {
      ...tools,
      drive_list_files: { description: 'Show the subdirectories of a drive' },
    };
    const session = engine.createSession({ resolvedTools: changed });
    expect(described).toEqual(['drive_list_files']);
    expect(session.indexes[1]).not.toBe(first.indexes[1]);
    expect(await searchNames(session, 'subdirectories')).toEqual(['drive_list_files']);
    expect(await searchNames(first, 'subdirectories')).toEqual([]);
  });

  it('reuses the index of new objects with the same content, with each request’s own instances', async () => {
    const { engine } = countingEngine();
    const alice = { drive_list_files: { description: 'List the files in a cloud drive folder' } };
    const bob = { drive_list_files: { description: 'List the files in a cloud drive folder' } };
    const aliceSession = engine.createSession({ resolvedTools: alice });
    const bobSession = engine.createSession({ resolvedTools: bob });
    expect(bobSession.indexes[1]).toBe(aliceSession.indexes[1]);
    expect(aliceSession.lookup('drive_list_files')?.tool).toBe(alice.drive_list_files);
    expect(bobSession.lookup('drive_list_files')?.tool).toBe(bob.drive_list_files);
  });

  it('describes a tool object listed under two keys once per key', () => {
    const { engine, described } = countingEngine();
    const shared = { description: 'Archive a drive folder' };
    described.length = 0;
    for (let step = 0; step < 3; step++) {
      engine.createSession({ resolvedTools: { drive_archive: shared, drive_backup: shared } });
    }
    expect(described).toEqual(['drive_archive', 'drive_backup']);
  });

  it('reports a skipped tool at every request, not only when it was first seen', () => {
    const errors: unknown[] = [];
    const { engine } = countingEngine((event) => errors.push(event));
    const tools = {
      notes: { description: 'Take notes' },
      notes_v2: { description: 'Newer notes' },
    };
    engine.createSession({ resolvedTools: tools });
    engine.createSession({ resolvedTools: { ...tools } });
    expect(errors).toEqual([
      expect.objectContaining({ operation: 'resolvedTools' }),
      expect.objectContaining({ operation: 'resolvedTools' }),
    ]);
  });
});

describe('engine.resolveTools', () => {
  it('resolves a request once for all of its sessions', async () => {
    const { engine, described } = countingEngine();
    described.length = 0;
    const resolved = engine.resolveTools(drive(10));
    expect(described).toHaveLength(11);
    for (let step = 0; step < 3; step++) {
      const session = engine.createSession({ resolvedTools: resolved });
      expect(session.indexes[1]).toBe(resolved.index);
      expect(await searchNames(session, 'cloud drive folder')).toContain('drive_list_files');
    }
    expect(described).toHaveLength(11);
  });

  it('takes [key, tool] pairs, skipping and reporting a repeated key', async () => {
    const errors: unknown[] = [];
    const { engine } = countingEngine((event) => errors.push(event));
    const first = { description: 'List the files in a cloud drive folder' };
    const resolved = engine.resolveTools([
      ['drive_list_files', first],
      ['drive_list_files', { description: 'An impostor' }],
      ['search_tools', { description: 'Not a meta-tool' }],
    ]);
    expect([...resolved.catalog.keys()]).toEqual(['drive_list_files']);
    expect(resolved.catalog.get('drive_list_files')?.tool).toBe(first);
    expect(errors).toHaveLength(1);
    const fromMap = engine.resolveTools(new Map([['drive_list_files', first]]));
    expect(fromMap.index).toBe(resolved.index);
    const session = engine.createSession({ resolvedTools: fromMap });
    expect(await searchNames(session, 'drive files')).toEqual(['drive_list_files']);
  });

  it('takes an array of tools with a key function, described once per object', async () => {
    const { engine, described } = countingEngine();
    const list = Object.entries(drive(5)).map(([name, tool]) => ({ name, ...tool }));
    described.length = 0;
    const first = engine.resolveTools(list, {
      keyOf: (tool) => (tool as unknown as { name: string }).name,
    });
    const again = engine.resolveTools([...list], {
      keyOf: (tool) => (tool as unknown as { name: string }).name,
    });
    expect(described).toHaveLength(6);
    expect(again.index).toBe(first.index);
    const session = engine.createSession({ resolvedTools: again });
    expect(await searchNames(session, 'cloud drive folder')).toContain('drive_list_files');
  });

  it('sees a change made to an array it resolved before', async () => {
    const { engine, described } = countingEngine();
    const list = Object.entries(drive(3)).map(([name, tool]) => ({ name, ...tool }));
    const keyOf = (tool: FakeTool) => (tool as unknown as { name: string }).name;
    const first = engine.resolveTools(list, { keyOf });
    described.length = 0;
    // Same key, new object: only the object tells the change.
    list[0] = { name: 'drive_tool_0', description: 'Share a folder with a colleague' };
    const changed = engine.resolveTools(list, { keyOf });
    expect(described).toEqual(['drive_tool_0']);
    expect(changed.index).not.toBe(first.index);
    expect(
      await searchNames(engine.createSession({ resolvedTools: changed }), 'share colleague'),
    ).toEqual(['drive_tool_0']);
    expect(
      await searchNames(engine.createSession({ resolvedTools: first }), 'share colleague'),
    ).toEqual([]);
  });

  it('keeps several requests: tools that alternate between two sets are resolved once each', () => {
    const { engine, described } = countingEngine();
    const alice = drive(4);
    const bob = { ...drive(4), drive_share: { description: 'Share a folder with a colleague' } };
    const aliceFirst = engine.resolveTools({ ...alice });
    const bobFirst = engine.resolveTools({ ...bob });
    described.length = 0;
    for (let step = 0; step < 3; step++) {
      expect(engine.resolveTools({ ...alice }).catalog).toBe(aliceFirst.catalog);
      expect(engine.resolveTools({ ...bob }).catalog).toBe(bobFirst.catalog);
    }
    expect(described).toEqual([]);
  });

  it('tells apart requests whose tools are the same under other keys', () => {
    const { engine } = countingEngine();
    const tool = { description: 'Archive a drive folder' };
    const archive = engine.resolveTools({ drive_archive: tool });
    const backup = engine.resolveTools({ drive_backup: tool });
    expect([...archive.catalog.keys()]).toEqual(['drive_archive']);
    expect([...backup.catalog.keys()]).toEqual(['drive_backup']);
  });

  it('refuses tools resolved by another engine, and input that is not tools', () => {
    const { engine } = countingEngine();
    const other = countingEngine().engine;
    const resolved = other.resolveTools(drive(2));
    expect(() => engine.createSession({ resolvedTools: resolved })).toThrow(/another engine/);
    expect(() => engine.resolveTools(null as never)).toThrow(/record of tools/);
  });
});
