import { expectStablePrefix } from 'tool-search-testing/prompt-prefix';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolSearch } from './create-tool-search';
import { AI_MAJORS, type ScriptedStep } from './test-utils/ai-majors';
import { type Context, setup, toolResultsOf, withContext } from './test-utils/setup';

const PROXY_META = ['search_tools', 'load_tool', 'call_tool'];

const step = (toolName: string, input: Record<string, unknown>): ScriptedStep => ({
  toolCalls: [{ toolName, input }],
});
const callTool = (name: string, args: Record<string, unknown>) =>
  step('call_tool', { name, arguments: args });

/** Five tools found, loaded and called; refused calls in between; 20 model calls in all. */
const LOADS: [string, string, Record<string, unknown>][] = [
  ['weather forecast', 'get_weather', { city: 'Paris' }],
  ['send an email', 'send_email', { to: 'ada@example.com', body: 'Hello' }],
  ['github issue', 'create_issue', { repo: 'acme/app', title: 'Bug' }],
  ['convert currency', 'convert_currency', { amount: 5, from: 'EUR', to: 'USD' }],
  ['translate text', 'translate_text', { text: 'Hello', language: 'fr' }],
];
const twentySteps: ScriptedStep[] = [
  ...LOADS.flatMap(([query, name, args]) => [
    step('search_tools', { query }),
    step('load_tool', { toolName: name }),
    callTool(name, args),
  ]),
  callTool('list_calendar_events', { from: '2026-01-01' }),
  callTool('convert_currency', { amount: 'five', from: 'EUR' }),
  callTool('get_weather', { city: 'Oslo' }),
  callTool('send_email', { to: 'bob@example.com', body: 'Hi' }),
  { text: 'Done.' },
];

describe.each(AI_MAJORS)("createToolSearch with expose: 'proxy' on $name", (major) => {
  it('sends the same tools at every step of a 20-step conversation with 5 loads, each request extending the last', async () => {
    const { toolSearch, executions } = setup(major, {
      expose: 'proxy',
      // The fifth tool loads but may never run.
      filter: ({ toolName, phase }) => !(phase === 'active' && toolName === 'translate_text'),
    });
    const { model, sentTools, sentRequests } = major.scriptedModel(twentySteps);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(25),
      prompt: 'Do the errands.',
    });
    expect(result.text).toBe('Done.');
    expect(sentTools()).toHaveLength(20);
    for (const names of sentTools()) expect(names).toEqual(PROXY_META);
    expectStablePrefix(sentRequests(), major.name);
    // Each allowed call ran exactly once, the one never searched for too (call_tool loads it);
    // the denied and schema-breaking ones never.
    expect(executions).toEqual({
      get_weather: [{ city: 'Paris' }, { city: 'Oslo' }],
      send_email: [
        { to: 'ada@example.com', body: 'Hello' },
        { to: 'bob@example.com', body: 'Hi' },
      ],
      create_issue: [{ repo: 'acme/app', title: 'Bug' }],
      convert_currency: [{ amount: 5, from: 'EUR', to: 'USD' }],
      list_calendar_events: [{ from: '2026-01-01' }],
    });
    const calls = toolResultsOf(result).filter((part) => part.toolName === 'call_tool');
    expect(calls.map((part) => (part.output as { success?: boolean }).success)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      false,
      undefined,
      false,
      undefined,
      undefined,
    ]);
    expect(calls[0]!.output).toEqual({ ok: true, tool: 'get_weather' });
    const loads = toolResultsOf(result).filter((part) => part.toolName === 'load_tool');
    expect((loads[0]!.output as { tools: { name: string }[] }).tools[0]!.name).toBe('get_weather');
  });

  it('keeps loads in the conversation under context storage across calls', async () => {
    const { toolSearch, executions } = setup(major, { expose: 'proxy' });
    const first = major.scriptedModel([
      step('load_tool', { toolName: 'get_weather' }),
      { text: 'Loaded.' },
    ]);
    const firstResult = await major.generateText({
      model: first.model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'Load weather.',
    });
    const messages = [
      { role: 'user', content: 'Load weather.' },
      ...(await major.responseMessages(firstResult)),
      { role: 'user', content: 'Now use it.' },
    ];
    const second = major.scriptedModel([callTool('get_weather', { city: 'Rome' }), { text: 'ok' }]);
    await major.generateText({
      model: second.model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      messages,
    });
    expect(executions.get_weather).toEqual([{ city: 'Rome' }]);
    expect(JSON.stringify(second.sentRequests()[0]!.tools)).toBe(
      JSON.stringify(first.sentRequests()[0]!.tools),
    );
  });

  it('passes the call context to the filter of a call_tool run', async () => {
    const { toolSearch, executions } = setup(major, {
      expose: 'proxy',
      storage: 'in-memory',
      threadId: 't1',
      filter: ({ requestContext, phase }) =>
        phase !== 'active' || (requestContext as Context | undefined)?.userId === 'ada',
    });
    for (const userId of ['bob', 'ada']) {
      const { model } = major.scriptedModel([
        step('load_tool', { toolName: 'get_weather' }),
        callTool('get_weather', { city: userId }),
        { text: 'ok' },
      ]);
      await major.generateText({
        model,
        tools: toolSearch.tools,
        stopWhen: major.stepCountIs(5),
        prompt: 'Weather?',
        ...withContext(major, toolSearch, { userId }),
      });
    }
    expect(executions.get_weather).toEqual([{ city: 'ada' }]);
  });

  it.runIf(major.name !== 'ai 5')(
    "applies the called tool's needsApproval and toModelOutput",
    async () => {
      const executed: unknown[] = [];
      const toolSearch = createToolSearch({
        toolSearch: true,
        expose: 'proxy',
        tools: {
          delete_repository: major.tool({
            description: 'Delete a GitHub repository',
            inputSchema: z.object({ repo: z.string() }),
            needsApproval: true,
            execute: async (input: unknown) => {
              executed.push(input);
              return 'deleted';
            },
          }),
          render_chart: major.tool({
            description: 'Render a chart as an image',
            inputSchema: z.object({ series: z.array(z.number()) }),
            execute: async () => ({ png: 'iVBOR' }),
            toModelOutput: () => ({ type: 'text', value: 'a chart of 3 points' }),
          }),
        },
      });
      const { model, sentRequests } = major.scriptedModel([
        step('load_tool', { toolNames: ['delete_repository', 'render_chart'] }),
        callTool('render_chart', { series: [1, 2, 3] }),
        callTool('delete_repository', { repo: 'acme/app' }),
        { text: 'unreachable' },
      ]);
      const result = await major.generateText({
        model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        stopWhen: major.stepCountIs(5),
        prompt: 'Chart, then delete.',
      });
      expect(executed).toEqual([]);
      expect(
        result.content.some((part: { type: string }) => part.type === 'tool-approval-request'),
      ).toBe(true);
      const lastPrompt = JSON.stringify(sentRequests().at(-1)!.messages);
      expect(lastPrompt).toContain('a chart of 3 points');
      expect(lastPrompt).not.toContain('iVBOR');
    },
  );

  it('streams the same conversation with streamText', async () => {
    const { toolSearch, executions } = setup(major, { expose: 'proxy' });
    const { model, sentRequests } = major.scriptedModel([
      step('search_tools', { query: 'weather' }),
      step('load_tool', { toolName: 'get_weather' }),
      callTool('get_weather', { city: 'Paris' }),
      { text: 'Sunny.' },
    ]);
    const result = major.streamText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(10),
      prompt: 'Weather in Paris?',
    });
    expect(await result.text).toBe('Sunny.');
    expectStablePrefix(sentRequests(), major.name);
    expect(executions.get_weather).toEqual([{ city: 'Paris' }]);
  });
});

describe("createToolSearch with expose: 'proxy'", () => {
  it('gives only the meta-tools and pinned tools as tools, and types them so', () => {
    const major = AI_MAJORS[2]!;
    const { toolSearch } = setup(major, { expose: 'proxy', alwaysLoaded: ['send_email'] });
    expect(Object.keys(toolSearch.tools)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
      'send_email',
    ]);
    expect(toolSearch.instructions).toContain('call_tool');
    const request = toolSearch.forRequest({
      crm_note: major.tool({ description: 'Add a CRM note', inputSchema: z.object({}) }),
    });
    expect(Object.keys(request.tools)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
      'send_email',
    ]);
  });
});
