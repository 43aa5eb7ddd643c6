import { RequestContext } from '@mastra/core/request-context';
import { describe, expect, it } from 'vitest';
import { describeMastraTool } from './describe-mastra-tool';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { lastResult, runAgent } from './testing/run-agent';
import { threadIdOf } from './thread-id-of';
import { ToolSearchProcessor } from './tool-search-processor';
import type { AnyMastraTool } from './tool-search-processor-options';

const newLog = (): ExecutionLog => ({ runs: [] });
const load = (toolName: string) => ({ toolName: 'load_tool', input: { toolName } });

describe('ToolSearchProcessor', () => {
  it('has the id and name of Mastra’s processor', () => {
    const processor = new ToolSearchProcessor({ tools: {} });
    expect(processor.id).toBe('tool-search');
    expect(processor.name).toBe('Tool Search Processor');
  });

  it('offers alwaysLoaded tools on every step without search', async () => {
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      alwaysLoaded: ['get_weather'],
    });
    const run = await runAgent({ processor, script: () => ({ text: 'hi' }), input: 'hello' });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool', 'get_weather']);
  });

  it('keeps within maxLoadedTools by unloading the least recently used tool', async () => {
    const evicted: string[][] = [];
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      maxLoadedTools: 2,
      onEvict: (event) => evicted.push(event.toolNames),
    });
    const run = await runAgent({
      processor,
      script: (turn) =>
        [
          load('get_weather'),
          load('send_email'),
          { toolName: 'get_weather', input: { city: 'Oslo' } },
          load('github_create_issue'),
        ][turn.call] ?? { text: 'done' },
      input: 'work',
      context: { mastra__threadId: 'budget' },
    });
    expect(evicted).toEqual([['send_email']]);
    expect(run.turns.at(-1)!.toolNames).toEqual([
      'search_tools',
      'load_tool',
      'get_weather',
      'github_create_issue',
    ]);
  });

  it('offers unload_tool when asked, and unloads', async () => {
    const processor = new ToolSearchProcessor({ tools: createCatalog(newLog()), unloadTool: true });
    const run = await runAgent({
      processor,
      script: (turn) =>
        [load('get_weather'), { toolName: 'unload_tool', input: { toolNames: ['get_weather'] } }][
          turn.call
        ] ?? { text: 'done' },
      input: 'work',
    });
    expect(run.turns[1]!.toolNames).toEqual([
      'search_tools',
      'load_tool',
      'unload_tool',
      'get_weather',
    ]);
    expect(run.turns[2]!.toolNames).toEqual(['search_tools', 'load_tool', 'unload_tool']);
    expect(lastResult(run.turns[2]!)?.output).toMatchObject({ unloaded: ['get_weather'] });
  });

  it('reports searches, loads and denials as events', async () => {
    const events: string[] = [];
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      filter: ({ toolName }) => toolName !== 'premium_export',
      onSearch: (event) => events.push(`search:${event.query}:${event.unmatchedTerms.join(',')}`),
      onLoad: (event) => events.push(`load:${event.toolNames.join(',')}`),
      onDenied: (event) => events.push(`denied:${event.toolName}:${event.phase}:${event.reason}`),
    });
    await runAgent({
      processor,
      script: (turn) =>
        [
          { toolName: 'search_tools', input: { query: 'weather zzyzx' } },
          { toolName: 'load_tool', input: { toolNames: ['get_weather', 'premium_export'] } },
        ][turn.call] ?? { text: 'done' },
      input: 'work',
    });
    expect(events).toContain('search:weather zzyzx:zzyzx');
    expect(events).toContain('load:get_weather');
    expect(events).toContain('denied:premium_export:load:filter');
  });

  it('lists the allowed catalog in a system message under injectCatalog', async () => {
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      injectCatalog: true,
      filter: ({ toolName }) => toolName !== 'premium_export',
    });
    const run = await runAgent({ processor, script: () => ({ text: 'hi' }), input: 'hello' });
    expect(run.turns[0]!.system).toContain('- `get_weather`: Get the current weather');
    expect(run.turns[0]!.system).not.toContain('premium_export');
  });

  it('offers a loaded tool as the registered object, and a checked copy under a budget', async () => {
    const catalog = createCatalog(newLog());
    const step = (processor: ToolSearchProcessor, requestContext: RequestContext) =>
      processor.processInputStep({
        requestContext,
        tools: {},
        messageList: { addSystem: () => undefined },
      } as never);
    const context = new RequestContext();
    context.set('mastra__threadId', 'objects');
    const loadEmail = async (processor: ToolSearchProcessor) => {
      const { tools } = await step(processor, context);
      await (tools!.load_tool as AnyMastraTool).execute!({ toolName: 'send_email' }, {} as never);
    };
    const plain = new ToolSearchProcessor({ tools: catalog });
    await loadEmail(plain);
    expect((await step(plain, context)).tools!.send_email).toBe(catalog.send_email);

    const budgeted = new ToolSearchProcessor({ tools: catalog, maxLoadedTools: 3 });
    await loadEmail(budgeted);
    const copy = (await step(budgeted, context)).tools!.send_email as typeof catalog.send_email;
    expect(copy).not.toBe(catalog.send_email);
    expect(copy).toBeInstanceOf(Object.getPrototypeOf(catalog.send_email!).constructor);
    expect(copy!.id).toBe('send_email');
  });

  it('gives Mastra’s approval-resume path the registered tools when nothing is enforced', async () => {
    const catalog = createCatalog(newLog());
    const processor = new ToolSearchProcessor({ tools: catalog });
    await runAgent({
      processor,
      script: (turn) => (turn.call === 0 ? load('get_weather') : { text: 'ok' }),
      input: 'load',
      context: { mastra__threadId: 'resume' },
    });
    const requestContext = new RequestContext();
    requestContext.set('mastra__threadId', 'resume');
    const tools = await processor.getLoadedToolsForRequestContext({ requestContext });
    expect(tools).toEqual({ get_weather: catalog.get_weather });
    expect(tools.get_weather).toBe(catalog.get_weather);
  });

  it('guards the tools it gives the approval-resume path when a filter can change its mind', async () => {
    const log = newLog();
    let revoked = false;
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      filter: ({ phase }) => !(revoked && phase === 'active'),
    });
    await runAgent({
      processor,
      script: (turn) => (turn.call === 0 ? load('get_weather') : { text: 'ok' }),
      input: 'load',
      context: { mastra__threadId: 'resume' },
    });
    const requestContext = new RequestContext();
    requestContext.set('mastra__threadId', 'resume');
    const tools = await processor.getLoadedToolsForRequestContext({ requestContext });
    expect(Object.keys(tools)).toEqual(['get_weather']);
    revoked = true;
    const execute = tools.get_weather!.execute!;
    await expect(execute({ city: 'Rome' }, {} as never)).rejects.toThrow(/not loaded/);
    expect(log.runs).toEqual([]);
    revoked = false;
    await expect(execute({ city: 'Rome' }, {} as never)).resolves.toMatchObject({ city: 'Rome' });
  });
});

describe('describeMastraTool', () => {
  it('indexes the id, the description and the input schema as JSON Schema', () => {
    const { get_weather } = createCatalog(newLog());
    const descriptor = describeMastraTool(get_weather!, 'weather');
    expect(descriptor.id).toBe('get_weather');
    expect(descriptor.description).toMatch(/forecast/);
    expect(descriptor.inputSchema).toMatchObject({
      properties: { city: { type: 'string', description: 'City name' } },
    });
  });

  it('falls back to the key and accepts plain JSON Schema', () => {
    const tool = { description: 'x', inputSchema: { type: 'object', properties: { q: {} } } };
    expect(describeMastraTool(tool as never, 'key')).toEqual({
      id: 'key',
      description: 'x',
      inputSchema: tool.inputSchema,
    });
  });
});

describe('threadIdOf', () => {
  it('reads the server thread first, then the memory thread', () => {
    const context = new RequestContext();
    expect(threadIdOf(context)).toBeUndefined();
    context.set('MastraMemory', { thread: { id: 'from-memory' } });
    expect(threadIdOf(context)).toBe('from-memory');
    context.set('mastra__threadId', 'from-server');
    expect(threadIdOf(context)).toBe('from-server');
  });
});
