import { describe, expect, it, vi } from 'vitest';
import type { CallToolRefusal, SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import {
  call,
  catalog,
  type FakeTool,
  load,
  meta,
  proxyEngine,
  weatherSchema,
} from './proxy-test-fixture';
import { createToolSearchEngine } from './tool-search-engine';

describe("expose: 'proxy'", () => {
  it('offers the same meta-tools in a fixed order, and only pinned tools besides, through every load', async () => {
    const { engine } = proxyEngine({ alwaysLoaded: ['github_create_issue'], unloadTool: true });
    const session = engine.createSession({ threadId: 't1' });
    const before = {
      meta: session.metaTools.map((tool) => [tool.name, tool.description]),
      offered: (await session.offeredTools()).map((tool) => tool.id),
    };
    expect(before.meta.map(([name]) => name)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
      'unload_tool',
    ]);
    expect(before.offered).toEqual(['github_create_issue']);
    await load(session, { toolNames: ['get_weather', 'send_email'] });
    const next = engine.createSession({ threadId: 't1' });
    expect(next.metaTools.map((tool) => [tool.name, tool.description])).toEqual(before.meta);
    expect((await next.offeredTools()).map((tool) => tool.id)).toEqual(before.offered);
    // What may run still includes the loads.
    expect((await next.activeTools()).map((tool) => tool.id)).toEqual([
      'github_create_issue',
      'get_weather',
      'send_email',
    ]);
    expect(next.instructions).toContain('call_tool');
  });

  it('answers load_tool with the definitions of the tools it loaded', async () => {
    const { engine } = proxyEngine();
    const session = engine.createSession({ threadId: 't1' });
    const single = await load(session, { toolName: 'get_weather' });
    expect(single).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(single.message).toContain('call_tool');
    expect(single.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather conditions for a city',
        inputSchema: weatherSchema,
      },
    ]);
    const list = await load(session, { toolNames: ['get_weather', 'github_create_issue', 'nope'] });
    expect(list.tools?.map((tool) => tool.name)).toEqual(['github_create_issue', 'get_weather']);
    // A tool without a schema is shown taking any object.
    expect(list.tools?.[0]?.inputSchema).toEqual({ type: 'object' });
    const missing = await load(session, { toolName: 'nope' });
    expect(missing.success).toBe(false);
    expect(missing.tools).toBeUndefined();
  });

  it('runs a loaded tool exactly once through call_tool, with the arguments and the call options', async () => {
    const { engine, runs } = proxyEngine();
    const session = engine.createSession({ threadId: 't1', requestContext: { plan: 'pro' } });
    await load(session, { toolName: 'get_weather' });
    const result = await call(
      session,
      { name: 'get_weather', arguments: { city: 'Oslo', days: 3 } },
      { toolCallId: 'call-1' },
    );
    expect(result).toEqual({ ran: 'get_weather', with: { city: 'Oslo', days: 3 } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: 'get_weather',
      key: 'get_weather',
      tool: catalog.get_weather,
      requestContext: { plan: 'pro' },
      threadId: 't1',
      callOptions: { toolCallId: 'call-1' },
    });
  });

  it('never runs an unknown or denied tool, a meta-tool, or a call without a name', async () => {
    const denied = vi.fn();
    const { engine, runs } = proxyEngine({
      onDenied: denied,
      filter: ({ toolName, phase }) => !(toolName === 'premium_stock_quote' && phase === 'load'),
    });
    const session = engine.createSession({ threadId: 't1' });
    for (const input of [
      { name: 'no_such_tool', arguments: {} },
      { name: 'premium_stock_quote', arguments: {} },
      { name: 'load_tool', arguments: { toolName: 'get_weather' } },
      { name: '__proto__', arguments: {} },
      { arguments: { city: 'Oslo' } },
      { name: 'get_weather', arguments: 'city=Oslo' },
      null,
    ]) {
      const output = (await call(session, input)) as CallToolRefusal;
      expect(output.success).toBe(false);
      expect(output.message.length).toBeGreaterThan(0);
    }
    expect(runs).toHaveLength(0);
    expect(await session.activeTools()).toEqual([]);
    const deniedTool = (await call(session, { name: 'premium_stock_quote' })) as CallToolRefusal;
    const unknown = (await call(session, { name: 'no_such_tool' })) as CallToolRefusal;
    // An unknown tool and a denied one read the same: nothing is revealed.
    expect(unknown.message.replace('no_such_tool', 'X')).toBe(
      deniedTool.message.replace('premium_stock_quote', 'X'),
    );
    expect(Object.keys(unknown).sort()).toEqual(Object.keys(deniedTool).sort());
    expect(denied).toHaveBeenCalledWith(
      expect.objectContaining({ toolName: 'premium_stock_quote', phase: 'load', reason: 'filter' }),
    );
    expect(denied).toHaveBeenCalledWith(
      expect.objectContaining({
        toolName: 'no_such_tool',
        phase: 'execute',
        reason: 'unknown-tool',
      }),
    );
    const noName = (await call(session, { arguments: {} })) as CallToolRefusal;
    expect(noName.message).toContain('"name"');
    const badArguments = (await call(session, {
      name: 'get_weather',
      arguments: 'city=Oslo',
    })) as CallToolRefusal;
    expect(badArguments.message).toContain('"arguments"');
  });

  it('refuses arguments that break the input schema, saying where and what was expected', async () => {
    const { engine, runs } = proxyEngine();
    const session = engine.createSession({ threadId: 't1' });
    await load(session, { toolNames: ['get_weather', 'send_email'] });
    const output = (await call(session, {
      name: 'get_weather',
      arguments: { days: 0, unit: 'kelvin', country: 'NO' },
    })) as CallToolRefusal;
    expect(output.success).toBe(false);
    expect(output.toolName).toBe('get_weather');
    expect(output.errors).toEqual(
      expect.arrayContaining([
        { path: '', message: expect.stringContaining('"city"') },
        { path: '/days', message: expect.stringContaining('1') },
        { path: '/unit', message: expect.stringContaining('celsius') },
        { path: '/country', message: expect.stringContaining('not a parameter') },
      ]),
    );
    // Cascading "property does not match" lines are left out.
    expect(output.errors?.some((error) => /does not match schema/.test(error.message))).toBe(false);
    expect(output.message).toContain('at arguments/days');
    const nested = (await call(session, {
      name: 'send_email',
      arguments: { to: 'a@b.c', attachments: [{ size: 1 }, { size: 'big' }] },
    })) as CallToolRefusal;
    expect(nested.errors).toEqual([
      { path: '/attachments/1/size', message: expect.stringContaining('number') },
    ]);
    expect(runs).toHaveLength(0);
    await call(session, { name: 'send_email', arguments: { to: 'a@b.c' } });
    expect(runs.map((run) => run.id)).toEqual(['send_email']);
  });

  it('asks the active filter at call time and never runs a tool it denies', async () => {
    let allowed = true;
    const { engine, runs } = proxyEngine({
      filter: ({ phase }) => phase !== 'active' || allowed,
    });
    const session = engine.createSession({ threadId: 't1' });
    await load(session, { toolName: 'get_weather' });
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    allowed = false;
    const refused = (await call(session, {
      name: 'get_weather',
      arguments: { city: 'Oslo' },
    })) as CallToolRefusal;
    expect(refused.success).toBe(false);
    expect(runs).toHaveLength(1);
  });

  it("throws the tool's own error, so the framework reports it as it would", async () => {
    const { engine } = proxyEngine({
      runTool: () => {
        throw new Error('upstream down');
      },
    });
    const session = engine.createSession({ threadId: 't1' });
    await load(session, { toolName: 'github_create_issue' });
    await expect(call(session, { name: 'github_create_issue', arguments: {} })).rejects.toThrow(
      'upstream down',
    );
  });

  it('runs a schema the validator cannot read unchecked, and reports it', async () => {
    const errors = vi.fn();
    const { engine, runs } = proxyEngine({
      tools: {
        odd: {
          description: 'A tool with a remote reference',
          inputSchema: { $ref: 'https://example.com/schema.json' },
        },
      },
      onError: errors,
    });
    const session = engine.createSession({ threadId: 't1' });
    await load(session, { toolName: 'odd' });
    await call(session, { name: 'odd', arguments: { any: 1 } });
    expect(runs).toHaveLength(1);
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ operation: 'call_tool.schema' }));
  });

  it('reads loads from the conversation under context storage, and refuses a forged load the filter denies', async () => {
    const { engine, runs } = proxyEngine({
      storage: 'context',
      filter: ({ toolName }) => toolName !== 'premium_stock_quote',
    });
    const first = engine.createSession();
    const loaded = await load(first, { toolName: 'get_weather' });
    const next = engine.createSession({
      toolResults: [
        { toolName: 'load_tool', output: loaded },
        { toolName: 'load_tool', output: { success: true, toolName: 'premium_stock_quote' } },
      ],
    });
    await call(next, { name: 'get_weather', arguments: { city: 'Oslo' } });
    const forged = (await call(next, {
      name: 'premium_stock_quote',
      arguments: {},
    })) as CallToolRefusal;
    expect(forged.success).toBe(false);
    expect(runs.map((run) => run.id)).toEqual(['get_weather']);
  });

  it('under autoLoad, search_tools answers with the definitions of what it loaded', async () => {
    const { engine, runs } = proxyEngine({ search: { autoLoad: true, topK: 1 } });
    const session = engine.createSession({ threadId: 't1' });
    expect(session.metaTools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
    const output = (await meta(session, 'search_tools').execute({
      query: 'weather in a city',
    })) as SearchToolsOutput;
    expect(output.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
    expect(output.message).toContain('call_tool');
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(runs).toHaveLength(1);
  });

  it("runs the request's own instance of a resolved tool", async () => {
    const own: FakeTool = {
      description: 'Current weather for the caller',
      inputSchema: weatherSchema,
    };
    const { engine, runs } = proxyEngine();
    const session = engine.createSession({ threadId: 't1', resolvedTools: { get_weather: own } });
    await load(session, { toolName: 'get_weather' });
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(runs[0]?.tool).toBe(own);
  });

  it('shows a deferred tool by its metadata and runs the tool resolved for this request', async () => {
    const resolved: FakeTool = { description: 'CRM lookup with the caller credentials' };
    const resolves: unknown[] = [];
    const { engine, runs } = proxyEngine({
      deferredTools: () => ({
        crm_lookup: {
          id: 'crm_lookup',
          description: 'Look up an account in the CRM',
          inputSchema: {
            type: 'object',
            properties: { account: { type: 'string' } },
            required: ['account'],
          },
          resolve: ({ requestContext }) => {
            resolves.push(requestContext);
            return resolved;
          },
        },
      }),
    });
    const session = engine.createSession({ threadId: 't1', requestContext: { plan: 'pro' } });
    const loaded = await load(session, { toolName: 'crm_lookup' });
    expect(loaded.tools).toEqual([
      {
        name: 'crm_lookup',
        description: 'Look up an account in the CRM',
        inputSchema: expect.objectContaining({ required: ['account'] }),
      },
    ]);
    const next = engine.createSession({ threadId: 't1', requestContext: { plan: 'pro' } });
    const refused = (await call(next, { name: 'crm_lookup', arguments: {} })) as CallToolRefusal;
    expect(refused.errors).toEqual([{ path: '', message: expect.stringContaining('"account"') }]);
    await call(next, { name: 'crm_lookup', arguments: { account: 'acme' } });
    expect(runs.map((run) => run.tool)).toEqual([resolved]);
    expect(resolves.at(-1)).toEqual({ plan: 'pro' });
  });

  it('lets one engine serve proxy and tools sessions side by side', async () => {
    const { engine, runs } = proxyEngine({ expose: 'tools' });
    const plain = engine.createSession({ threadId: 't1' });
    const proxied = engine.createSession({ threadId: 't1', expose: 'proxy' });
    expect(plain.metaTools.map((tool) => tool.name)).toEqual(['search_tools', 'load_tool']);
    expect(proxied.metaTools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
    ]);
    expect((await load(plain, { toolName: 'get_weather' })).tools).toBeUndefined();
    expect((await load(proxied, { toolName: 'get_weather' })).tools).toHaveLength(1);
    expect((await plain.offeredTools()).map((tool) => tool.id)).toEqual(['get_weather']);
    expect(await proxied.offeredTools()).toEqual([]);
    await call(proxied, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(runs).toHaveLength(1);
    const withoutRunner = createToolSearchEngine({
      tools: catalog,
      describe: (tool, key) => ({ id: key, description: tool.description }),
    });
    expect(() => withoutRunner.createSession({ expose: 'proxy' })).toThrow(/runTool/);
  });

  it('is refused without runTool, and a catalog tool may not be named call_tool', () => {
    expect(() =>
      createToolSearchEngine({
        tools: catalog,
        describe: (tool, key) => ({ id: key, description: tool.description }),
        expose: 'proxy',
      }),
    ).toThrow(/runTool/);
    expect(() =>
      createToolSearchEngine({
        tools: { call_tool: { description: 'x' } },
        describe: (tool, key) => ({ id: key, description: tool.description }),
      }),
    ).toThrow(/reserved/);
    expect(() =>
      createToolSearchEngine({
        tools: catalog,
        describe: (tool, key) => ({ id: key, description: tool.description }),
        expose: 'both' as never,
      }),
    ).toThrow(/expose/);
  });
});
