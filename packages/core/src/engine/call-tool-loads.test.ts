import { describe, expect, it, vi } from 'vitest';
import type { CallToolRefusal, SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import {
  type Context,
  call,
  catalog,
  type FakeTool,
  load,
  meta,
  proxyEngine,
  weatherSchema,
} from './proxy-test-fixture';
import { createToolSearchEngine } from './tool-search-engine';

describe("call_tool and search_tools under expose: 'proxy': a tool use in two requests", () => {
  it('answers a search with the definitions of its best results the load filter allows, so call_tool can run one next', async () => {
    const { engine, runs } = proxyEngine({
      search: { topK: 4 },
      filter: ({ toolName, phase }) => !(toolName === 'send_email' && phase === 'load'),
    });
    const session = engine.createSession({ threadId: 't1' });
    const search = meta(session, 'search_tools');
    const output = (await search.execute({
      query: 'weather email issue stock',
    })) as SearchToolsOutput;
    const names = output.results.map((result) => result.name);
    expect(names).toContain('send_email');
    const defined = names.filter((name) => name !== 'send_email').slice(0, 3);
    expect(output.tools?.map((tool) => tool.name)).toEqual(defined);
    expect(output.tools?.find((tool) => tool.name === 'get_weather')?.inputSchema).toEqual(
      weatherSchema,
    );
    expect(output.message).toContain('call_tool');
    // Nothing was loaded by the search: the call loads the tool it runs.
    expect(await session.activeTools()).toEqual([]);
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(runs.map((run) => run.id)).toEqual(['get_weather']);
  });

  it('answers a search without definitions under definitions: 0 and under expose: tools', async () => {
    const none = proxyEngine({ search: { definitions: 0 } }).engine.createSession({});
    const output = (await meta(none, 'search_tools').execute({
      query: 'weather',
    })) as SearchToolsOutput;
    expect(output.results.length).toBeGreaterThan(0);
    expect(output.tools).toBeUndefined();
    expect(output.message).toContain('load_tool');
    const tools = createToolSearchEngine<FakeTool>({
      tools: catalog,
      describe: (tool, key) => ({ id: key, description: tool.description }),
    }).createSession({});
    const plain = (await tools.metaTools[0]!.execute({ query: 'weather' })) as SearchToolsOutput;
    expect(plain.tools).toBeUndefined();
    expect(() => proxyEngine({ search: { definitions: -1 } })).toThrow(/definitions/);
  });

  it('leaves a definition too large to repeat out of a search answer and a refusal', async () => {
    const huge = {
      description: 'Pick a country from the list',
      inputSchema: {
        type: 'object',
        properties: {
          country: { enum: Array.from({ length: 5_000 }, (_, index) => `country-${index}`) },
        },
        required: ['country'],
      },
    };
    const runs: string[] = [];
    const engine = createToolSearchEngine<FakeTool, Context>({
      tools: { ...catalog, pick_country: huge },
      describe: (tool, key) => ({
        id: key,
        description: tool.description,
        ...(tool.inputSchema && { inputSchema: tool.inputSchema }),
      }),
      expose: 'proxy',
      runTool: (run) => runs.push(run.id),
    });
    const session = engine.createSession({});
    const output = (await session.metaTools[0]!.execute({
      query: 'pick country',
    })) as SearchToolsOutput;
    expect(output.results[0]?.name).toBe('pick_country');
    expect(output.tools?.some((tool) => tool.name === 'pick_country') ?? false).toBe(false);
    const refused = (await call(session, {
      name: 'pick_country',
      arguments: { country: 'Atlantis' },
    })) as CallToolRefusal;
    expect(refused.success).toBe(false);
    expect(refused.tools).toBeUndefined();
    expect(refused.message).toContain('load_tool');
    expect(JSON.stringify(refused).length).toBeLessThan(4_000);
    expect(runs).toEqual([]);
  });

  it('loads and runs a catalog tool that was never searched for or loaded, once', async () => {
    const loads = vi.fn();
    const { engine, runs } = proxyEngine({ onLoad: loads });
    const session = engine.createSession({ threadId: 't1' });
    const result = await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(result).toEqual({ ran: 'get_weather', with: { city: 'Oslo' } });
    expect(runs.map((run) => run.id)).toEqual(['get_weather']);
    expect(loads).toHaveBeenCalledWith({
      threadId: 't1',
      toolNames: ['get_weather'],
      via: 'call_tool',
    });
    // Loaded by its call: the thread has it from now on, as after load_tool.
    const next = engine.createSession({ threadId: 't1' });
    expect((await next.activeTools()).map((tool) => tool.id)).toEqual(['get_weather']);
    await call(next, { name: 'get_weather', arguments: { city: 'Bergen' } });
    expect(runs).toHaveLength(2);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('answers a call of a tool it had not loaded, with arguments that break its schema, with the definition and each problem, loading nothing', async () => {
    const { engine, runs } = proxyEngine();
    const session = engine.createSession({ threadId: 't1' });
    const refused = (await call(session, {
      name: 'get_weather',
      arguments: { town: 'Oslo' },
    })) as CallToolRefusal;
    expect(refused.success).toBe(false);
    expect(refused.errors).toEqual(
      expect.arrayContaining([
        { path: '', message: expect.stringContaining('"city"') },
        { path: '/town', message: expect.stringContaining('not a parameter') },
      ]),
    );
    expect(refused.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather conditions for a city',
        inputSchema: weatherSchema,
      },
    ]);
    expect(refused.message).toContain('input schema is in tools');
    expect(runs).toHaveLength(0);
    expect(await session.activeTools()).toEqual([]);
    // The next call, with what the definition asks for, runs.
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(runs).toHaveLength(1);
  });

  it('keeps the budget when call_tool loads, and refuses a tool the active filter denies', async () => {
    const { engine, runs } = proxyEngine({
      maxLoadedTools: 1,
      filter: ({ toolName, phase }) => !(toolName === 'github_create_issue' && phase === 'active'),
    });
    const session = engine.createSession({ threadId: 't1' });
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    await call(session, { name: 'send_email', arguments: { to: 'a@b.c' } });
    expect((await session.activeTools()).map((tool) => tool.id)).toEqual(['send_email']);
    const refused = (await call(session, { name: 'github_create_issue' })) as CallToolRefusal;
    expect(refused.success).toBe(false);
    expect(runs.map((run) => run.id)).toEqual(['get_weather', 'send_email']);
  });

  it('loads a tool the budget evicted again for its call, evicting the least recently used', async () => {
    const { engine, runs } = proxyEngine({ maxLoadedTools: 1 });
    const session = engine.createSession({ threadId: 't1' });
    await load(session, { toolName: 'get_weather' });
    const second = await load(session, { toolName: 'github_create_issue' });
    expect(second.evicted).toEqual(['get_weather']);
    await call(session, { name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(runs.map((run) => run.id)).toEqual(['get_weather']);
    expect((await session.activeTools()).map((tool) => tool.id)).toEqual(['get_weather']);
  });
});
