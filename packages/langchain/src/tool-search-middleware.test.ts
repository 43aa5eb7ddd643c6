import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import {
  type CallLog,
  createCatalog,
  recordBoundTools,
  type Step,
  scriptedModel,
} from './testing/fixtures';
import { type ToolSearchMiddlewareOptions, toolSearchMiddleware } from './tool-search-middleware';

const META = ['search_tools', 'load_tool'];

function buildAgent(
  steps: Step[],
  options: Partial<ToolSearchMiddlewareOptions> = {},
  extra: { checkpointer?: MemorySaver; log?: CallLog } = {},
) {
  const log = extra.log ?? [];
  const recorder = recordBoundTools();
  const agent = createAgent({
    model: scriptedModel(steps),
    tools: [],
    middleware: [
      toolSearchMiddleware({
        toolSearch: true,
        expose: 'tools',
        tools: createCatalog(log),
        ...options,
      }),
      recorder.middleware,
    ],
    ...(extra.checkpointer && { checkpointer: extra.checkpointer }),
  });
  return { agent, log, bound: recorder.calls, systemPrompts: recorder.systemPrompts };
}

const ask = (text: string) => ({ messages: [new HumanMessage(text)] });

function toolMessages(result: { messages: unknown[] }): ToolMessage[] {
  return result.messages.filter((message): message is ToolMessage =>
    ToolMessage.isInstance(message),
  );
}

const SEARCH_LOAD_CALL: Step[] = [
  { calls: [{ name: 'search_tools', args: { query: 'weather forecast' } }] },
  { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
  { calls: [{ name: 'get_weather', args: { city: 'Lisbon' } }] },
  { answer: 'Sunny in Lisbon.' },
];

describe('toolSearchMiddleware', () => {
  it('searches, loads, calls and answers, binding the loaded tool from the next step on', async () => {
    const { agent, log, bound } = buildAgent(SEARCH_LOAD_CALL);
    const result = await agent.invoke(ask('Weather in Lisbon?'), {
      configurable: { thread_id: 't1' },
    });
    expect(bound).toEqual([META, META, [...META, 'get_weather'], [...META, 'get_weather']]);
    expect(log).toEqual(['get_weather']);
    const [search, load, call] = toolMessages(result);
    expect(JSON.parse(search!.text).results[0].name).toBe('get_weather');
    expect(JSON.parse(load!.text)).toMatchObject({ success: true, toolName: 'get_weather' });
    expect(call!.text).toBe('Sunny in Lisbon');
    expect(result.messages.at(-1)?.text).toBe('Sunny in Lisbon.');
  });

  it('indexes parameter descriptions and JSON-schema tools', async () => {
    const { agent } = buildAgent([
      { calls: [{ name: 'search_tools', args: { query: 'recipient address' } }] },
      { answer: 'ok' },
    ]);
    const result = await agent.invoke(ask('email'));
    expect(JSON.parse(toolMessages(result)[0]!.text).results[0].name).toBe('send_email');
  });

  it('keeps the agent’s own tools and appends loaded tools in load order', async () => {
    const log: CallLog = [];
    const recorder = recordBoundTools();
    const [getWeather, sendEmail, ...rest] = createCatalog(log);
    const agent = createAgent({
      model: scriptedModel([
        { calls: [{ name: 'load_tool', args: { toolNames: ['send_email', 'get_weather'] } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'create_issue' } }] },
        { answer: 'done' },
      ]),
      tools: [getWeather!],
      middleware: [
        toolSearchMiddleware({ toolSearch: true, expose: 'tools', tools: [sendEmail!, ...rest] }),
        recorder.middleware,
      ],
    });
    await agent.invoke(ask('go'));
    expect(recorder.calls).toEqual([
      ['get_weather', ...META],
      ['get_weather', ...META, 'send_email'],
      ['get_weather', ...META, 'send_email', 'create_issue'],
    ]);
  });

  it('answers a direct call to a tool that is not loaded without running it', async () => {
    const { agent, log } = buildAgent([
      { calls: [{ name: 'get_weather', args: { city: 'Oslo' } }] },
      { answer: 'I need to load it first.' },
    ]);
    const result = await agent.invoke(ask('Weather?'), { configurable: { thread_id: 't1' } });
    expect(log).toEqual([]);
    const [refusal] = toolMessages(result);
    expect(refusal!.status).toBe('error');
    expect(refusal!.text).toMatch(/not loaded.*search_tools/);
    expect(result.messages.at(-1)?.text).toBe('I need to load it first.');
  });

  it('loads what search returns under autoLoad and does not offer load_tool', async () => {
    const { agent, log, bound } = buildAgent(
      [
        { calls: [{ name: 'search_tools', args: { query: 'weather forecast', limit: 1 } }] },
        { calls: [{ name: 'get_weather', args: { city: 'Rome' } }] },
        { answer: 'Sunny.' },
      ],
      { search: { autoLoad: true } },
    );
    await agent.invoke(ask('Weather in Rome?'));
    expect(bound).toEqual([
      ['search_tools'],
      ['search_tools', 'get_weather'],
      ['search_tools', 'get_weather'],
    ]);
    expect(log).toEqual(['get_weather']);
  });

  it('appends the instruction to the system message, or leaves it alone', async () => {
    const withText = buildAgent([{ answer: 'hi' }]);
    await withText.agent.invoke(ask('hi'));
    expect(withText.systemPrompts[0]).toMatch(/search_tools/);
    const without = buildAgent([{ answer: 'hi' }], { instructions: false });
    await without.agent.invoke(ask('hi'));
    expect(without.systemPrompts[0]).toBe('');
  });

  describe('filter', () => {
    type Plan = { plan?: string };
    const planIs = (runtime: unknown, plan: string) =>
      ((runtime as { context?: Plan } | undefined)?.context?.plan ?? 'free') === plan;

    it('hides a tool from search results (search phase)', async () => {
      const { agent } = buildAgent(
        [
          { calls: [{ name: 'search_tools', args: { query: 'weather forecast' } }] },
          { answer: 'x' },
        ],
        { filter: ({ toolName, phase }) => !(phase === 'search' && toolName === 'get_weather') },
      );
      const result = await agent.invoke(ask('weather'));
      const names = JSON.parse(toolMessages(result)[0]!.text).results.map(
        (hit: { name: string }) => hit.name,
      );
      expect(names).not.toContain('get_weather');
    });

    it('refuses a load as "not found" (load phase), so the tool is never bound nor run', async () => {
      const denied: string[] = [];
      const { agent, bound, log } = buildAgent(
        [
          { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
          { calls: [{ name: 'get_weather', args: { city: 'Oslo' } }] },
          { answer: 'x' },
        ],
        {
          filter: ({ phase, requestContext }) => phase !== 'load' || planIs(requestContext, 'pro'),
          onDenied: ({ toolName, phase }) => denied.push(`${phase}:${toolName}`),
        },
      );
      const result = await agent.invoke(ask('weather'), { context: { plan: 'free' } });
      expect(JSON.parse(toolMessages(result)[0]!.text)).toMatchObject({ success: false });
      expect(toolMessages(result)[0]!.text).toMatch(/not found/);
      expect(bound.every((names) => !names.includes('get_weather'))).toBe(true);
      expect(log).toEqual([]);
      expect(denied).toContain('load:get_weather');
      expect(denied).toContain('execute:get_weather');
    });

    it('withdraws a loaded tool from the list and from execution (active phase)', async () => {
      const checkpointer = new MemorySaver();
      const config = { configurable: { thread_id: 'plan-change' } };
      const options: Partial<ToolSearchMiddlewareOptions> = {
        filter: ({ phase, requestContext }) => phase !== 'active' || planIs(requestContext, 'pro'),
      };
      const pro = buildAgent(
        [
          { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
          { answer: 'loaded' },
        ],
        options,
        { checkpointer },
      );
      await pro.agent.invoke(ask('load it'), { ...config, context: { plan: 'pro' } });
      expect(pro.bound.at(-1)).toContain('get_weather');

      const free = buildAgent(
        [{ calls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }, { answer: 'denied' }],
        options,
        { checkpointer },
      );
      const result = await free.agent.invoke(ask('use it'), {
        ...config,
        context: { plan: 'free' },
      });
      expect(free.bound).toEqual([META, META]);
      expect(free.log).toEqual([]);
      expect(toolMessages(result).at(-1)!.text).toMatch(/not loaded/);
    });
  });

  describe('state', () => {
    it('keeps two threads apart (in-memory storage)', async () => {
      const log: CallLog = [];
      const recorder = recordBoundTools();
      const agent = createAgent({
        model: scriptedModel([
          { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
          { answer: 'loaded on t1' },
          { calls: [{ name: 'get_weather', args: { city: 'Oslo' } }] },
          { answer: 'refused on t2' },
        ]),
        tools: [],
        middleware: [
          toolSearchMiddleware({
            toolSearch: true,
            expose: 'tools',
            tools: createCatalog(log),
            storage: 'in-memory',
          }),
          recorder.middleware,
        ],
      });
      await agent.invoke(ask('load'), { configurable: { thread_id: 't1' } });
      await agent.invoke(ask('call'), { configurable: { thread_id: 't2' } });
      expect(recorder.calls).toEqual([META, [...META, 'get_weather'], META, META]);
      expect(log).toEqual([]);
    });

    it('keeps two threads apart (context storage, one checkpointer)', async () => {
      const checkpointer = new MemorySaver();
      const { agent, bound } = buildAgent(
        [
          { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
          { answer: 'loaded on a' },
          { answer: 'nothing on b' },
        ],
        {},
        { checkpointer },
      );
      await agent.invoke(ask('load'), { configurable: { thread_id: 'a' } });
      await agent.invoke(ask('hello'), { configurable: { thread_id: 'b' } });
      expect(bound).toEqual([META, [...META, 'get_weather'], META]);
    });

    it('rebuilds loaded tools from the checkpointed messages after a restart', async () => {
      const checkpointer = new MemorySaver();
      const config = { configurable: { thread_id: 'restart' } };
      const before = buildAgent(
        [
          { calls: [{ name: 'load_tool', args: { toolName: 'create_issue' } }] },
          { answer: 'loaded' },
        ],
        {},
        { checkpointer },
      );
      await before.agent.invoke(ask('load'), config);

      // A new process: a new middleware, a new model, only the checkpointer survives.
      const after = buildAgent(
        [
          { calls: [{ name: 'create_issue', args: { repo: 'acme/app', title: 'Bug' } }] },
          { answer: 'opened' },
        ],
        {},
        { checkpointer },
      );
      const result = await after.agent.invoke(ask('open it'), config);
      expect(after.bound[0]).toEqual([...META, 'create_issue']);
      expect(after.log).toEqual(['create_issue']);
      expect(result.messages.at(-1)?.text).toBe('opened');
    });
  });
});
