import { describe, expect, it } from 'vitest';
import type { LoadToolOutput, SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { createMemoryStore } from '../state/memory-store';
import { type DeferredTool, ToolResolutionError } from './deferred-tools';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
  /** Whose credentials the tool acts with. */
  owner?: string | undefined;
}
interface Context {
  user: string;
}

/** A deferred catalog whose every fetch and resolve is recorded. */
function connectors(names: string[], options: { failing?: Set<string> } = {}) {
  const fetches: (string | undefined)[] = [];
  const resolves: string[] = [];
  const source = ({ requestContext }: { requestContext: Context | undefined }) => {
    fetches.push(requestContext?.user);
    return Object.fromEntries(
      names.map((name): [string, DeferredTool<FakeTool>] => [
        name,
        {
          id: name,
          description: `${name.replaceAll('_', ' ')} through the connector`,
          resolve: async () => {
            resolves.push(name);
            if (options.failing?.has(name)) throw new Error(`${name}: token revoked`);
            return { description: name, owner: requestContext?.user };
          },
        },
      ]),
    );
  };
  return { source, fetches, resolves };
}

function engineFor(options: Partial<ToolSearchEngineOptions<FakeTool, Context>> = {}) {
  return createToolSearchEngine<FakeTool, Context>({
    tools: { get_weather: { description: 'Current weather for a city' } },
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

const run = (session: ToolSearchSession<FakeTool, Context>, name: string, input: unknown) =>
  session.metaTools.find((tool) => tool.name === name)!.execute(input);
const search = (session: ToolSearchSession<FakeTool, Context>, query: string) =>
  run(session, 'search_tools', { query }) as Promise<SearchToolsOutput>;
const load = (session: ToolSearchSession<FakeTool, Context>, toolName: string) =>
  run(session, 'load_tool', { toolName }) as Promise<LoadToolOutput>;

describe('deferredTools', () => {
  it('searches the metadata without resolving, and resolves only the tool that is loaded', async () => {
    const { source, resolves } = connectors(['gmail_send_message', 'gmail_list_threads']);
    const session = engineFor({ deferredTools: source }).createSession({
      threadId: 't',
      requestContext: { user: 'alice' },
    });
    const found = await search(session, 'gmail send message');
    expect(found.results[0]?.name).toBe('gmail_send_message');
    expect(resolves).toEqual([]);
    expect(await load(session, 'gmail_send_message')).toMatchObject({ success: true });
    expect(resolves).toEqual(['gmail_send_message']);
    expect(await session.activeTools()).toEqual([
      {
        id: 'gmail_send_message',
        tool: { description: 'gmail_send_message', owner: 'alice' },
        pinned: false,
        deferred: true,
      },
    ]);
    expect(resolves).toEqual(['gmail_send_message']);
  });

  it('lists nothing and resolves nothing for a step that loads only static tools', async () => {
    const { source, fetches } = connectors(['gmail_send_message']);
    const engine = engineFor({ deferredTools: source });
    const first = engine.createSession({ threadId: 't' });
    await load(first, 'get_weather');
    const next = engine.createSession({ threadId: 't' });
    expect((await next.activeTools()).map((tool) => tool.id)).toEqual(['get_weather']);
    expect(fetches).toEqual([]);
  });

  it('resolves a loaded tool again for each request, with that request’s context', async () => {
    const { source, resolves } = connectors(['gmail_send_message']);
    const engine = engineFor({ deferredTools: source, storage: createMemoryStore() });
    await load(
      engine.createSession({ threadId: 'shared', requestContext: { user: 'alice' } }),
      'gmail_send_message',
    );
    const bob = engine.createSession({ threadId: 'shared', requestContext: { user: 'bob' } });
    expect((await bob.activeTools())[0]?.tool.owner).toBe('bob');
    const alice = engine.createSession({ threadId: 'shared', requestContext: { user: 'alice' } });
    expect((await alice.activeTools())[0]?.tool.owner).toBe('alice');
    expect(resolves).toEqual(['gmail_send_message', 'gmail_send_message', 'gmail_send_message']);
  });

  it('rethrows a failing resolve from load_tool and loads nothing', async () => {
    const { source } = connectors(['gmail_send_message'], {
      failing: new Set(['gmail_send_message']),
    });
    const errors: string[] = [];
    const session = engineFor({
      deferredTools: source,
      onError: (event) => errors.push(event.operation),
    }).createSession({ threadId: 't' });
    const failure = await load(session, 'gmail_send_message').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolResolutionError);
    expect((failure as Error).message).toBe(
      'Tool "gmail_send_message" could not be loaded: gmail_send_message: token revoked',
    );
    expect(await session.readEntries()).toEqual([]);
    expect(errors).toEqual(['deferredTools:resolve']);
  });

  it('withholds a loaded tool whose resolve fails at a later step, and keeps the others', async () => {
    const failing = new Set<string>();
    const { source } = connectors(['gmail_send_message'], { failing });
    const engine = engineFor({ deferredTools: source });
    const first = engine.createSession({ threadId: 't' });
    await load(first, 'gmail_send_message');
    await load(first, 'get_weather');
    failing.add('gmail_send_message');
    const next = engine.createSession({ threadId: 't' });
    expect((await next.activeTools()).map((tool) => tool.id)).toEqual(['get_weather']);
  });

  it('shows under autoLoad only tools that resolve, and loads them', async () => {
    const { source } = connectors(['gmail_send_message', 'gmail_send_draft'], {
      failing: new Set(['gmail_send_message']),
    });
    const session = engineFor({
      deferredTools: source,
      search: { autoLoad: true, topK: 1 },
    }).createSession({ threadId: 't' });
    const found = await search(session, 'gmail send message');
    expect(found.results.map((result) => result.name)).toEqual(['gmail_send_draft']);
    expect(found.activation?.loaded).toEqual(['gmail_send_draft']);
  });

  it('asks deferredFilter about metadata and the filter only about resolved tools', async () => {
    const { source, resolves } = connectors(['gmail_send_message', 'gmail_delete_message']);
    const filtered: { phase: string; tool: unknown }[] = [];
    const session = engineFor({
      deferredTools: source,
      deferredFilter: ({ toolName }) => toolName !== 'gmail_delete_message',
      filter: ({ phase, tool, requestContext }) => {
        filtered.push({ phase, tool });
        return requestContext?.user === 'alice';
      },
    }).createSession({ threadId: 't', requestContext: { user: 'alice' } });
    const found = await search(session, 'gmail message');
    expect(found.results.map((result) => result.name)).toEqual(['gmail_send_message']);
    expect(await load(session, 'gmail_delete_message')).toMatchObject({ success: false });
    expect(resolves).toEqual([]);
    await load(session, 'gmail_send_message');
    expect(filtered).toEqual([
      { phase: 'load', tool: { description: 'gmail_send_message', owner: 'alice' } },
    ]);
  });

  it('refuses, at the search that meets it, a deferred tool named like another tool', async () => {
    const errors: string[] = [];
    const engine = engineFor({
      deferredTools: () => ({
        get_weather: {
          id: 'get_weather',
          description: 'weather',
          resolve: () => ({ description: '' }),
        },
      }),
      onError: (event) => errors.push(event.operation),
    });
    const session = engine.createSession();
    await expect(search(session, 'weather')).rejects.toThrow('duplicate deferred tool');
    expect(errors).toEqual(['deferredTools']);
    // The static tool is not replaced, and loads as before.
    expect(await load(session, 'get_weather')).toMatchObject({ success: true });
    expect(await session.activeTools()).toEqual([
      { id: 'get_weather', tool: { description: 'Current weather for a city' }, pinned: false },
    ]);
  });

  it('refuses a deferred tool without resolve, and one keyed like a meta-tool', async () => {
    const session = (
      source: NonNullable<ToolSearchEngineOptions<FakeTool, Context>['deferredTools']>,
    ) => engineFor({ deferredTools: source }).createSession();
    await expect(
      search(
        session(() => ({ mail: { id: 'mail' } as unknown as DeferredTool<FakeTool> })),
        'mail',
      ),
    ).rejects.toThrow('needs a `resolve` function');
    await expect(
      search(
        session(() => ({
          load_tool: { id: 'mail', resolve: () => ({ description: '' }) },
        })),
        'mail',
      ),
    ).rejects.toThrow('reserved meta-tool name');
    await expect(
      search(
        session(() => null as never),
        'mail',
      ),
    ).rejects.toThrow('must return a record');
  });

  it('fetches the deferred list at most once per session', async () => {
    const { source, fetches } = connectors(['gmail_send_message']);
    const session = engineFor({ deferredTools: source }).createSession({ threadId: 't' });
    await search(session, 'gmail');
    await load(session, 'gmail_send_message');
    await session.activeTools();
    expect(fetches).toHaveLength(1);
  });

  it('lists allowed metadata for a catalog listing without resolving', async () => {
    const { source, resolves } = connectors(['gmail_send_message', 'gmail_delete_message']);
    const session = engineFor({
      deferredTools: source,
      deferredFilter: ({ toolName }) => toolName === 'gmail_send_message',
    }).createSession();
    const listed = await session.listTools('search');
    expect(listed.map((entry) => entry.descriptor.id)).toEqual([
      'get_weather',
      'gmail_send_message',
    ]);
    expect(resolves).toEqual([]);
  });

  it('answers hostile sources and resolvers without crashing or losing state', async () => {
    const errors: string[] = [];
    let failSource = false;
    const engine = engineFor({
      deferredTools: () => {
        if (failSource) return Promise.reject(new Error('directory unavailable'));
        const tools: Record<string, DeferredTool<FakeTool>> = {};
        Object.defineProperty(tools, '__proto__', {
          value: {
            id: '__proto__',
            description: 'prototype named tool',
            resolve: () => ({ description: 'p' }),
          },
          enumerable: true,
        });
        tools.empty = {
          id: 'empty',
          description: 'resolves to nothing',
          resolve: () => null as never,
        };
        tools.guarded = {
          id: 'guarded',
          description: 'guarded by a throwing filter',
          resolve: () => ({ description: 'g' }),
        };
        return tools;
      },
      deferredFilter: ({ toolName }) => {
        if (toolName === 'guarded') throw new Error('policy service down');
        return true;
      },
      onError: (event) => errors.push(event.operation),
    });
    const session = engine.createSession({ threadId: 'hostile' });
    expect(await load(session, '__proto__')).toMatchObject({
      success: true,
      toolName: '__proto__',
    });
    await expect(load(session, 'empty')).rejects.toThrow('resolve returned no tool');
    expect(await load(session, 'guarded')).toMatchObject({ success: false });
    expect(errors).toEqual(['deferredTools:resolve', 'deferredFilter:load']);
    expect((await session.activeTools()).map((tool) => tool.id)).toEqual(['__proto__']);
    // A source that fails later withholds deferred tools from a step, and keeps the thread's state.
    failSource = true;
    await load(session, 'get_weather');
    const next = engine.createSession({ threadId: 'hostile' });
    expect((await next.activeTools()).map((tool) => tool.id)).toEqual(['get_weather']);
    await expect(search(next, 'prototype')).rejects.toThrow('directory unavailable');
    failSource = false;
    const recovered = engine.createSession({ threadId: 'hostile' });
    expect((await recovered.activeTools()).map((tool) => tool.id)).toEqual([
      '__proto__',
      'get_weather',
    ]);
  });

  it('throws at construction for a deferredTools that is not a function', () => {
    expect(() => engineFor({ deferredTools: {} as never })).toThrow(
      '`deferredTools` must be a function',
    );
  });
});
