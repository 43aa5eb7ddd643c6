import { describe, expect, it, vi } from 'vitest';
import type { LoadToolOutput, SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolSearchEngineOptions } from './types';

/** A framework tool that carries its own id, like a Mastra tool, listed under any key. */
interface IdTool {
  id?: string;
  description: string;
  owner?: string;
}

const describeIdTool = (tool: IdTool, key: string) => ({
  id: tool.id ?? key,
  description: tool.description,
});

function engineFor(
  tools: Record<string, IdTool>,
  options: Partial<ToolSearchEngineOptions<IdTool>> = {},
) {
  return createToolSearchEngine<IdTool>({ tools, describe: describeIdTool, ...options });
}

const call = (session: ToolSearchSession<IdTool>, name: string, input: unknown) =>
  session.metaTools.find((tool) => tool.name === name)!.execute(input);
const load = (session: ToolSearchSession<IdTool>, input: unknown) =>
  call(session, 'load_tool', input) as Promise<LoadToolOutput>;
const search = (session: ToolSearchSession<IdTool>, query: string) =>
  call(session, 'search_tools', { query }) as Promise<SearchToolsOutput>;
const activeIds = async (session: ToolSearchSession<IdTool>) =>
  (await session.activeTools()).map((tool) => tool.id);

const weather: IdTool = { id: 'get-weather', description: 'Current weather for a city' };
const mail: IdTool = { id: 'send-email', description: 'Send an email to a recipient' };

describe('tool keys and ids', () => {
  it('names a tool by its id and loads it by its id or by its key', async () => {
    const asked: string[] = [];
    const onLoad = vi.fn();
    const engine = engineFor(
      { weather, mail },
      {
        filter: ({ toolName, phase }) => {
          asked.push(`${phase}:${toolName}`);
          return true;
        },
        onLoad,
      },
    );
    const session = engine.createSession({ threadId: 'keys' });
    expect((await search(session, 'weather')).results[0]?.name).toBe('get-weather');
    expect(await load(session, { toolName: 'weather' })).toMatchObject({
      success: true,
      toolName: 'get-weather',
      loaded: ['get-weather'],
    });
    expect(await load(session, { toolName: 'get-weather' })).toMatchObject({
      message: expect.stringContaining('already loaded'),
    });
    expect(await activeIds(session)).toEqual(['get-weather']);
    expect(await session.isActive('weather')).toBe(true);
    // Always by id; `isActive` asks again, since the policy may have changed since the step.
    expect(asked).toEqual([
      'search:get-weather',
      'load:get-weather',
      'active:get-weather',
      'active:get-weather',
    ]);
    expect(onLoad).toHaveBeenCalledWith({
      threadId: 'keys',
      toolNames: ['get-weather'],
      via: 'load_tool',
    });
  });

  it('counts a tool asked for by both names once', async () => {
    const session = engineFor({ weather, mail }).createSession();
    expect(await load(session, { toolNames: ['weather', 'get-weather', 'mail'] })).toMatchObject({
      success: true,
      loaded: ['get-weather', 'send-email'],
      loadedCount: 2,
    });
  });

  it('pins and unloads by key', async () => {
    const engine = engineFor({ weather, mail }, { alwaysLoaded: ['weather'], unloadTool: true });
    const session = engine.createSession();
    await load(session, { toolName: 'mail' });
    expect(await activeIds(session)).toEqual(['get-weather', 'send-email']);
    expect(await call(session, 'unload_tool', { toolNames: ['mail'] })).toMatchObject({
      unloaded: ['send-email'],
    });
    expect(await activeIds(session)).toEqual(['get-weather']);
    expect(() => engineFor({ weather }, { alwaysLoaded: ['nope'] })).toThrow(/id or key/);
  });

  it('suggests each near tool once, under its key on a tie', async () => {
    const session = engineFor({ weather, forecast: { description: 'Forecast' } }).createSession();
    const output = await load(session, { toolName: 'weath' });
    expect(output.message).toMatch(/Did you mean: weather\?/);
    expect(output.message).not.toContain('get-weather');
    const byId = await load(session, { toolName: 'get-wether' });
    expect(byId.message).toMatch(/Did you mean: get-weather\?/);
  });

  it('lets one tool listed under two keys be one tool with two names', async () => {
    const session = engineFor({ weather, forecast: weather }).createSession();
    expect((await search(session, 'weather city')).results).toHaveLength(1);
    await load(session, { toolName: 'forecast' });
    expect(await activeIds(session)).toEqual(['get-weather']);
  });

  it("replays loads written with a key, under 'context', as the tool's id", async () => {
    const engine = engineFor({ weather, mail }, { storage: 'context' });
    const session = engine.createSession({
      toolResults: [
        { toolName: 'load_tool', output: { success: true, message: '', loaded: ['weather'] } },
        { toolName: 'load_tool', output: { success: true, message: '', loaded: ['mail'] } },
        { toolName: 'load_tool', output: { success: true, message: '', loaded: ['get-weather'] } },
      ],
    });
    // Loading a loaded tool again (by its id) keeps its first place.
    expect(await activeIds(session)).toEqual(['get-weather', 'send-email']);
  });

  it("resolves a key to its id, which a request's own tool of that id shadows", async () => {
    const engine = engineFor({ weather, mail });
    const session = engine.createSession({
      resolvedTools: { 'send-email': { description: 'Tenant mail relay', owner: 'tenant' } },
    });
    await load(session, { toolName: 'mail' });
    expect((await session.activeTools())[0]?.tool.owner).toBe('tenant');
  });
});

describe('catalog construction', () => {
  it('rejects a key that is another tool’s id, naming both tools, in either order', () => {
    const message = /"weather".*"public_weather".*"private_weather".*must resolve unambiguously/;
    const keyed = { id: 'public_weather', description: 'Public weather' };
    const identified = { id: 'weather', description: 'Private weather' };
    expect(() => engineFor({ weather: keyed, private_weather: identified })).toThrow(message);
    expect(() => engineFor({ private_weather: identified, weather: keyed })).toThrow(message);
    expect(() =>
      engineFor({ a: { id: 'b', description: '' }, b: { id: 'a', description: '' } }),
    ).toThrow(/must resolve unambiguously/);
  });

  it('rejects duplicate ids and the meta-tools’ names as keys or ids', () => {
    expect(() =>
      engineFor({ first: { id: 'x', description: '' }, second: { id: 'x', description: '' } }),
    ).toThrow(/requires unique tool ids: the tools under keys "first" and "second"/);
    expect(() => engineFor({ search_tools: { id: 'mine', description: '' } })).toThrow(
      /reserved meta-tool names/,
    );
    expect(() => engineFor({ mine: { id: 'unload_tool', description: '' } })).toThrow(
      /reserved meta-tool names/,
    );
  });

  it('skips and reports an ambiguous request-resolved tool instead of failing the request', async () => {
    const onError = vi.fn();
    const engine = engineFor({ weather }, { onError });
    const session = engine.createSession({
      resolvedTools: {
        notes: { id: 'take-notes', description: 'Take notes' },
        'take-notes': { id: 'other-notes', description: 'Other notes' },
      },
    });
    expect((await search(session, 'notes')).results.map((result) => result.name)).toEqual([
      'take-notes',
    ]);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({
        operation: 'resolvedTools',
        error: expect.objectContaining({ message: expect.stringMatching(/unambiguously/) }),
      }),
    );
  });
});
