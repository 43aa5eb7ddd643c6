/**
 * Regression tests for the bugs the model-based property tests found, one `describe` each, as
 * small fixed examples that fail without the fix.
 */
import { describe, expect, it } from 'vitest';
import type { LoadToolOutput } from '../meta-tools/meta-tool-schemas';
import { applyLoadedToolsOperation } from '../state/apply-loaded-tools-operation';
import { createMemoryStore } from '../state/memory-store';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolResultRecord, ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
}

const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  send_email: { description: 'Send an email to a recipient' },
  create_issue: { description: 'Open an issue in a GitHub repository' },
};

function engineFor(options: Partial<ToolSearchEngineOptions<FakeTool>> = {}) {
  return createToolSearchEngine<FakeTool>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

async function load(session: ToolSearchSession<FakeTool>, input: unknown): Promise<LoadToolOutput> {
  const tool = session.metaTools.find((candidate) => candidate.name === 'load_tool')!;
  return (await tool.execute(input)) as LoadToolOutput;
}

const activeIds = async (session: ToolSearchSession<FakeTool>) =>
  (await session.activeTools()).map((tool) => tool.id);

describe('context storage with pinned tools and a budget', () => {
  it('keeps a tool loaded alongside a pinned one: the pin takes no room in the budget', async () => {
    const engine = engineFor({
      storage: 'context',
      alwaysLoaded: ['create_issue'],
      maxLoadedTools: 1,
    });
    const output = await load(engine.createSession(), {
      toolNames: ['get_weather', 'create_issue'],
    });
    expect(output).toMatchObject({ loaded: ['get_weather'], alreadyLoaded: ['create_issue'] });
    const results: ToolResultRecord[] = [{ toolName: 'load_tool', output }];
    expect(await activeIds(engine.createSession({ toolResults: results }))).toEqual([
      'create_issue',
      'get_weather',
    ]);
  });

  it('never reports a pinned tool as evicted by a later load', async () => {
    const engine = engineFor({
      storage: 'context',
      alwaysLoaded: ['create_issue'],
      maxLoadedTools: 1,
    });
    const first = await load(engine.createSession(), { toolName: 'create_issue' });
    const second = await load(
      engine.createSession({ toolResults: [{ toolName: 'load_tool', output: first }] }),
      { toolName: 'send_email' },
    );
    expect(second).toMatchObject({ success: true, loaded: ['send_email'] });
    expect(second.evicted).toBeUndefined();
  });
});

describe('context storage replay', () => {
  it('keeps a reloaded tool in its place, so the tools offered keep their order', async () => {
    const engine = engineFor({ storage: 'context' });
    const first = await load(engine.createSession(), { toolNames: ['get_weather'] });
    const results: ToolResultRecord[] = [{ toolName: 'load_tool', output: first }];
    const second = await load(engine.createSession({ toolResults: results }), {
      toolNames: ['send_email', 'get_weather'],
    });
    expect(second).toMatchObject({ loaded: ['send_email'], alreadyLoaded: ['get_weather'] });
    results.push({ toolName: 'load_tool', output: second });
    expect(await activeIds(engine.createSession({ toolResults: results }))).toEqual([
      'get_weather',
      'send_email',
    ]);
  });

  it('still evicts the least recently loaded tool first, a reload counting as a use', async () => {
    const engine = engineFor({ storage: 'context', maxLoadedTools: 2 });
    const results: ToolResultRecord[] = [];
    for (const toolName of ['get_weather', 'send_email', 'get_weather', 'create_issue']) {
      const output = await load(engine.createSession({ toolResults: results }), { toolName });
      results.push({ toolName: 'load_tool', output });
    }
    expect(results.at(-1)?.output).toMatchObject({ evicted: ['send_email'] });
    expect(await activeIds(engine.createSession({ toolResults: results }))).toEqual([
      'get_weather',
      'create_issue',
    ]);
  });

  it('unloads a tool that a result loaded by its key when a later result unloads its id', async () => {
    const engine = createToolSearchEngine<FakeTool>({
      tools: { mail: catalog.send_email! },
      describe: (tool) => ({ id: 'send_email', description: tool.description }),
      storage: 'context',
    });
    const session = engine.createSession({
      toolResults: [
        { toolName: 'load_tool', output: { success: true, toolName: 'mail', loaded: ['mail'] } },
        { toolName: 'unload_tool', output: { success: true, unloaded: ['send_email'] } },
      ],
    });
    expect(await activeIds(session)).toEqual([]);
  });
});

describe('load_tool of a tool already loaded', () => {
  it('reports the tools evicted to bring a thread back within a lowered budget', async () => {
    const store = createMemoryStore();
    const before = engineFor({ storage: store, maxLoadedTools: 3 }).createSession({
      threadId: 't',
    });
    await load(before, { toolNames: ['get_weather', 'send_email', 'create_issue'] });
    const after = engineFor({ storage: store, maxLoadedTools: 2 }).createSession({
      threadId: 't',
    });
    const output = await load(after, { toolName: 'create_issue' });
    expect(output).toMatchObject({
      success: true,
      toolName: 'create_issue',
      evicted: ['get_weather'],
    });
    expect(output.message).toContain('get_weather');
    expect(await activeIds(after)).toEqual(['send_email', 'create_issue']);
  });
});

describe('session.isActive', () => {
  it('asks the filter again, so a tool the policy denies since the step began never runs', async () => {
    let denied = false;
    const engine = engineFor({
      filter: ({ toolName, phase }) =>
        !(denied && phase === 'active' && toolName === 'get_weather'),
    });
    const session = engine.createSession({ threadId: 't' });
    await load(session, { toolName: 'get_weather' });
    expect(await activeIds(session)).toEqual(['get_weather']);
    denied = true;
    expect(await session.isActive('get_weather')).toBe(false);
  });
});

describe('applyLoadedToolsOperation across processes', () => {
  it('never evicts a tool it just loaded because its process clock is behind the thread', () => {
    const entries = [
      { id: 'a', usedAt: 10 },
      { id: 'b', usedAt: 20 },
    ];
    // Another process, whose clock is behind, loads `c` "at 5".
    const change = applyLoadedToolsOperation(entries, {
      type: 'load',
      ids: ['c'],
      at: 5,
      maxLoadedTools: 2,
    });
    expect(change).toMatchObject({ loaded: ['c'], evicted: ['a'] });
    expect(entries.map((entry) => entry.id)).toEqual(['b', 'c']);
  });
});
