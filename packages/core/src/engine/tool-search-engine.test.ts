import { describe, expect, it, vi } from 'vitest';
import type { UnloadToolOutput } from '../meta-tools/meta-tool-schemas';
import {
  activeIds,
  catalog,
  engineFor,
  type FakeTool,
  load,
  metaTool,
  search,
} from './engine-test-fixture';
import { createToolSearchEngine } from './tool-search-engine';

describe('createToolSearchEngine', () => {
  it('offers search_tools and load_tool, and unload_tool when enabled', () => {
    expect(
      engineFor()
        .createSession()
        .metaTools.map((tool) => tool.name),
    ).toEqual(['search_tools', 'load_tool']);
    expect(
      engineFor({ search: { autoLoad: true } })
        .createSession()
        .metaTools.map((tool) => tool.name),
    ).toEqual(['search_tools']);
    expect(
      engineFor({ unloadTool: true })
        .createSession()
        .metaTools.map((tool) => tool.name),
    ).toEqual(['search_tools', 'load_tool', 'unload_tool']);
  });

  it('searches with name, description and score, topK by default and limit on request', async () => {
    const session = engineFor({ search: { topK: 2 } }).createSession();
    const output = await search(session, 'weather forecast');
    expect(output.results).toHaveLength(2);
    expect(output.results[0]).toEqual({
      name: 'get_forecast',
      description: 'Multi-day weather forecast for a city',
      score: expect.any(Number),
    });
    expect(output.message).toMatch(/load_tool/);
    expect((await search(session, 'weather', 1)).results).toHaveLength(1);
  });

  it('answers empty, odd and malformed queries with a message', async () => {
    const session = engineFor().createSession();
    expect(await search(session, '   ')).toEqual({
      results: [],
      message: expect.stringMatching(/empty/),
    });
    expect((await search(session, '🙂🙂')).message).toMatch(/^No tools found/);
    expect(await search(session, 42)).toEqual({
      results: [],
      success: false,
      message:
        'search_tools: "query" must be a few keywords describing the task, or a tool name (a string), got 42.',
    });
    expect((await search(session, 'x'.repeat(100_000))).results).toEqual([]);
    expect((await search(session, '(.*)+$')).results).toEqual([]);
  });

  it('loads a tool for the next step and reports already loaded and not found', async () => {
    const session = engineFor().createSession({ threadId: 't1' });
    expect(await load(session, { toolName: 'get_weather' })).toEqual({
      success: true,
      message: expect.stringMatching(/loaded successfully/),
      toolName: 'get_weather',
      loaded: ['get_weather'],
    });
    expect(await activeIds(session)).toEqual(['get_weather']);
    expect((await load(session, { toolName: 'get_weather' })).message).toMatch(/already loaded/);
    const missing = await load(session, { toolName: 'get_wether' });
    expect(missing.success).toBe(false);
    expect(missing.message).toMatch(/Did you mean: get_weather/);
    const many = await load(session, { toolNames: ['send_email', 'get_weather', 'nope'] });
    expect(many).toMatchObject({
      success: false,
      loaded: ['send_email'],
      alreadyLoaded: ['get_weather'],
      notFound: ['nope'],
      loadedCount: 1,
    });
    expect(await activeIds(session)).toEqual(['get_weather', 'send_email']);
    expect((await load(session, {})).success).toBe(false);
    expect((await load(session, { toolNames: 'get_weather' })).success).toBe(false);
  });

  it('keeps a thread loaded across requests and anonymous requests apart', async () => {
    const engine = engineFor();
    await load(engine.createSession({ threadId: 't1' }), { toolName: 'send_email' });
    expect(await activeIds(engine.createSession({ threadId: 't1' }))).toEqual(['send_email']);
    expect(await activeIds(engine.createSession({ threadId: 't2' }))).toEqual([]);
    const anonymous = engine.createSession();
    await load(anonymous, { toolName: 'get_weather' });
    expect(await activeIds(anonymous)).toEqual(['get_weather']);
    expect(await activeIds(engine.createSession())).toEqual([]);
    expect(engine.getStateStats().threadCount).toBe(1);
  });

  it("rebuilds an anonymous request's loads from its own tool results, not from shared state", async () => {
    const engine = engineFor();
    const results = [
      { toolName: 'load_tool', output: { success: true, message: '', toolName: 'get_weather' } },
    ];
    expect(await activeIds(engine.createSession({ toolResults: results }))).toEqual([
      'get_weather',
    ]);
    expect(await activeIds(engine.createSession({ threadId: 't9', toolResults: results }))).toEqual(
      [],
    );
  });

  it('loads what search returns under autoLoad', async () => {
    const onLoad = vi.fn();
    const session = engineFor({ search: { autoLoad: true, topK: 2 }, onLoad }).createSession({
      threadId: 'a',
    });
    const output = await search(session, 'weather forecast');
    expect(output.activation?.loaded).toEqual(['get_forecast', 'get_weather']);
    expect(await activeIds(session)).toEqual(['get_forecast', 'get_weather']);
    expect(onLoad).toHaveBeenCalledWith({
      threadId: 'a',
      toolNames: ['get_forecast', 'get_weather'],
      via: 'search_tools',
    });
  });

  it('orders pinned tools first, then loaded tools in load order', async () => {
    const session = engineFor({ alwaysLoaded: ['send_email'] }).createSession();
    await load(session, { toolName: 'slack_post_message' });
    await load(session, { toolName: 'get_weather' });
    await load(session, { toolName: 'slack_post_message' });
    expect(await session.activeTools()).toEqual([
      { id: 'send_email', tool: catalog.send_email, pinned: true },
      { id: 'slack_post_message', tool: catalog.slack_post_message, pinned: false },
      { id: 'get_weather', tool: catalog.get_weather, pinned: false },
    ]);
    expect((await load(session, { toolName: 'send_email' })).message).toMatch(/already loaded/);
  });

  it('evicts the least recently used tool past maxLoadedTools and says so', async () => {
    const onEvict = vi.fn();
    const session = engineFor({ maxLoadedTools: 2, onEvict }).createSession({ threadId: 'b' });
    await load(session, { toolName: 'get_weather' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await load(session, { toolName: 'send_email' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await session.isActive('get_weather')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const output = await load(session, { toolName: 'slack_post_message' });
    expect(output.evicted).toEqual(['send_email']);
    expect(output.message).toMatch(/unloaded: send_email/);
    expect(await activeIds(session)).toEqual(['get_weather', 'slack_post_message']);
    expect(onEvict).toHaveBeenCalledWith({
      threadId: 'b',
      toolNames: ['send_email'],
      reason: 'budget',
    });
  });

  it('unloads tools with unload_tool', async () => {
    const session = engineFor({ unloadTool: true }).createSession();
    await load(session, { toolNames: ['get_weather', 'send_email'] });
    const output = (await metaTool(session, 'unload_tool').execute({
      toolNames: ['get_weather', 'nope'],
    })) as UnloadToolOutput;
    expect(output).toMatchObject({ success: true, unloaded: ['get_weather'], notLoaded: ['nope'] });
    expect(await activeIds(session)).toEqual(['send_email']);
  });

  it('refuses to run a tool that was never loaded', async () => {
    const onDenied = vi.fn();
    const session = engineFor({ onDenied }).createSession();
    expect(await session.isActive('send_email')).toBe(false);
    expect(onDenied).toHaveBeenCalledWith({
      threadId: undefined,
      toolName: 'send_email',
      phase: 'execute',
      reason: 'not-active',
    });
  });
});

describe('filter', () => {
  const premiumOnly = ({
    toolName,
    requestContext,
    phase,
  }: {
    toolName: string;
    requestContext: { plan?: string } | undefined;
    phase: string;
  }) => phase === 'search' || requestContext?.plan === 'pro' || !toolName.startsWith('premium_');

  it('hides tools from search results', async () => {
    const session = engineFor({
      filter: ({ toolName, phase }) => !(phase === 'search' && toolName === 'get_forecast'),
    }).createSession();
    expect(
      (await search(session, 'weather forecast')).results.map((result) => result.name),
    ).toEqual(['get_weather']);
  });

  it('refuses a load the filter denies, exactly as if the tool did not exist', async () => {
    const onDenied = vi.fn();
    const engine = engineFor({ filter: premiumOnly, onDenied });
    const denied = await load(engine.createSession({ requestContext: { plan: 'free' } }), {
      toolName: 'premium_stock_quote',
    });
    const unknown = await load(engine.createSession({ requestContext: { plan: 'free' } }), {
      toolName: 'premium_stock_quotes_x',
    });
    expect(denied).toEqual({
      success: false,
      message: 'Tool "premium_stock_quote" not found. Use search_tools to find tools.',
      toolName: 'premium_stock_quote',
    });
    expect(unknown.message).not.toMatch(/premium_stock_quote\b[^_]/);
    expect(onDenied).toHaveBeenCalledWith({
      threadId: undefined,
      toolName: 'premium_stock_quote',
      phase: 'load',
      reason: 'filter',
    });
    expect(onDenied).toHaveBeenCalledWith({
      threadId: undefined,
      toolName: 'premium_stock_quotes_x',
      phase: 'load',
      reason: 'unknown-tool',
    });
    expect(
      (
        await load(engine.createSession({ requestContext: { plan: 'pro' } }), {
          toolName: 'premium_stock_quote',
        })
      ).success,
    ).toBe(true);
  });

  it('hides loaded tools that are no longer allowed (active phase) and refuses to run them', async () => {
    const engine = engineFor({ filter: premiumOnly });
    await load(engine.createSession({ threadId: 'p', requestContext: { plan: 'pro' } }), {
      toolName: 'premium_stock_quote',
    });
    const downgraded = engine.createSession({ threadId: 'p', requestContext: { plan: 'free' } });
    expect(await activeIds(downgraded)).toEqual([]);
    expect(await downgraded.isActive('premium_stock_quote')).toBe(false);
  });

  it('treats a filter that throws, rejects or never answers as a denial', async () => {
    const onDenied = vi.fn();
    const engine = engineFor({
      filterTimeout: 20,
      onDenied,
      filter: ({ toolName }) => {
        if (toolName === 'get_weather') throw new Error('policy service down');
        if (toolName === 'send_email') return Promise.reject(new Error('nope'));
        if (toolName === 'get_forecast') return new Promise<boolean>(() => {});
        return true;
      },
    });
    const session = engineFor().createSession();
    expect(session).toBeDefined();
    const filtered = engine.createSession();
    expect(
      (
        await load(filtered, {
          toolNames: ['get_weather', 'send_email', 'get_forecast', 'slack_post_message'],
        })
      ).loaded,
    ).toEqual(['slack_post_message']);
    expect(onDenied.mock.calls.map(([event]) => event.reason).sort()).toEqual([
      'filter-error',
      'filter-error',
      'filter-timeout',
    ]);
  });
});

describe('includeResolvedTools (resolvedTools)', () => {
  it('searches request-resolved tools and resolves each caller to their own instance', async () => {
    const engine = engineFor();
    const alice = engine.createSession({
      threadId: 'shared',
      resolvedTools: { mcp_list_files: { description: 'List files in the drive', owner: 'alice' } },
    });
    const bob = engine.createSession({
      threadId: 'shared',
      resolvedTools: { mcp_list_files: { description: 'List files in the drive', owner: 'bob' } },
    });
    expect((await search(alice, 'list files')).results[0]?.name).toBe('mcp_list_files');
    await load(alice, { toolName: 'mcp_list_files' });
    expect((await alice.activeTools())[0]?.tool.owner).toBe('alice');
    expect((await bob.activeTools())[0]?.tool.owner).toBe('bob');
    expect(await activeIds(engine.createSession({ threadId: 'shared' }))).toEqual([]);
  });

  it('indexes a request once and never rebuilds the static index', async () => {
    const engine = engineFor();
    const staticIndex = engine.index;
    const resolved = { mcp_search_docs: { description: 'Search documentation pages' } };
    const first = engine.createSession({ resolvedTools: resolved });
    const second = engine.createSession({ resolvedTools: { ...resolved } });
    expect(engine.index).toBe(staticIndex);
    expect(first.indexes[1]).toBe(second.indexes[1]);
    expect((await search(second, 'documentation')).results[0]?.name).toBe('mcp_search_docs');
  });

  it('skips a duplicate among resolved tools and reports it, instead of failing the request', async () => {
    const onError = vi.fn();
    const engine = createToolSearchEngine<FakeTool>({
      tools: catalog,
      describe: (tool, key) => ({ id: key.replace(/_v2$/, ''), description: tool.description }),
      onError,
    });
    const session = engine.createSession({
      resolvedTools: {
        mcp_notes: { description: 'Take notes' },
        mcp_notes_v2: { description: 'Take notes, newer' },
      },
    });
    expect((await search(session as never, 'notes')).results.map((result) => result.name)).toEqual([
      'mcp_notes',
    ]);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ operation: 'resolvedTools' }));
  });

  it('lists the tools the search filter allows, for a catalog listing', async () => {
    const session = engineFor({
      filter: ({ toolName }) => !toolName.startsWith('premium_'),
    }).createSession();
    const ids = (await session.listTools()).map((entry) => entry.descriptor.id);
    expect(ids).toContain('get_weather');
    expect(ids).not.toContain('premium_stock_quote');
  });

  it('lets a resolved tool shadow a static tool of the same id for that request only', async () => {
    const engine = engineFor();
    const session = engine.createSession({
      resolvedTools: {
        send_email: { description: 'Send mail through the tenant relay', owner: 'tenant' },
      },
    });
    const results = (await search(session, 'send email', 10)).results.filter(
      (result) => result.name === 'send_email',
    );
    expect(results).toHaveLength(1);
    await load(session, { toolName: 'send_email' });
    expect((await session.activeTools())[0]?.tool.owner).toBe('tenant');
  });
});
