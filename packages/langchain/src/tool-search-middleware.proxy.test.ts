import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { expectStablePrefix } from 'tool-search-testing/prompt-prefix';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CallLog,
  createCatalog,
  messageFields,
  recordBoundTools,
  type Step,
  scriptedModel,
} from './testing/fixtures';
import { toolSearchMiddleware } from './tool-search-middleware';
import { createToolSearchSelector } from './tool-search-selector';

const PROXY_META = ['search_tools', 'load_tool', 'call_tool'];

const step = (name: string, args: Record<string, unknown>): Step => ({ calls: [{ name, args }] });
const callTool = (name: string, args: Record<string, unknown>) =>
  step('call_tool', { name, arguments: args });

/** Five tools found, loaded and called; refused calls in between; 20 model calls in all. */
const LOADS: [string, string, Record<string, unknown>][] = [
  ['weather forecast', 'get_weather', { city: 'Lisbon' }],
  ['send email', 'send_email', { to: 'ada@example.com' }],
  ['github issue', 'create_issue', { repo: 'acme/app', title: 'Crash' }],
  ['translate', 'translate_text', {}],
  ['list files', 'list_files', {}],
];
const TWENTY_STEPS: Step[] = [
  ...LOADS.flatMap(([query, name, args]) => [
    step('search_tools', { query }),
    step('load_tool', { toolName: name }),
    callTool(name, args),
  ]),
  callTool('book_meeting', {}),
  callTool('create_issue', { repo: 'acme/app' }),
  callTool('get_weather', { city: 'Porto' }),
  callTool('send_email', { to: 'bob@example.com' }),
  { answer: 'Done.' },
];

const toolMessages = (messages: unknown[]) =>
  messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));

describe("toolSearchMiddleware with expose: 'proxy'", () => {
  it('binds the same tools at every step of a 20-step conversation with 5 loads, each request extending the last', async () => {
    const log: CallLog = [];
    const recorder = recordBoundTools();
    const agent = createAgent({
      model: scriptedModel(TWENTY_STEPS),
      tools: [],
      middleware: [
        toolSearchMiddleware({
          toolSearch: true,
          tools: createCatalog(log),
          expose: 'proxy',
          filter: ({ toolName, phase }) => !(phase === 'active' && toolName === 'translate_text'),
        }),
        recorder.middleware,
      ],
    });
    const result = await agent.invoke(
      { messages: [new HumanMessage('Do the errands.')] },
      { recursionLimit: 100 },
    );
    expect(result.messages.at(-1)?.text).toBe('Done.');
    const { requests } = recorder;
    expect(requests).toHaveLength(20);
    for (const names of recorder.calls) expect(names).toEqual(PROXY_META);
    expectStablePrefix(requests, 'createAgent');
    // Each allowed call ran once, the one never searched for too (call_tool loads it); the
    // denied and schema-breaking ones never.
    expect(log).toEqual(['get_weather', 'send_email', 'create_issue', 'get_weather', 'send_email']);
    const answers = toolMessages(result.messages);
    // The fillers log nothing; their answer is their name.
    expect(answers.filter((message) => message.text === 'list_files')).toHaveLength(1);
    expect(answers.filter((message) => message.text === 'book_meeting')).toHaveLength(1);
    expect(answers.filter((message) => message.text === 'translate_text')).toHaveLength(0);
    const calls = answers.filter((message) => message.name !== undefined && message.text);
    expect(calls.some((message) => message.text === 'Sunny in Lisbon')).toBe(true);
    const load = answers.find((message) => message.text.includes('"tools"'));
    expect(JSON.parse(load!.text).tools[0]).toMatchObject({
      name: 'get_weather',
      inputSchema: { properties: { city: { type: 'string' } } },
    });
    const refusals = answers.filter((message) => message.text.includes('"success":false'));
    expect(refusals).toHaveLength(2);
    const schemaRefusal = refusals
      .map(
        (message) => JSON.parse(message.text) as { errors?: { path: string; message: string }[] },
      )
      .find((output) => output.errors !== undefined);
    expect(schemaRefusal?.errors).toEqual([
      { path: '', message: expect.stringContaining('"title"') },
    ]);
  });

  it("answers with the called tool's own ToolMessage and artifact, and fires its callbacks", async () => {
    const started: string[] = [];
    const chart = tool(async ({ points }) => [`${points.length} points`, { png: 'iVBOR' }], {
      name: 'render_chart',
      description: 'Render a chart as an image',
      schema: z.object({ points: z.array(z.number()) }),
      responseFormat: 'content_and_artifact',
    });
    const agent = createAgent({
      model: scriptedModel([
        step('load_tool', { toolName: 'render_chart' }),
        callTool('render_chart', { points: [1, 2, 3] }),
        { answer: 'ok' },
      ]),
      tools: [],
      middleware: [toolSearchMiddleware({ toolSearch: true, tools: [chart], expose: 'proxy' })],
    });
    const recorder = {
      handleToolStart: (
        _tool: unknown,
        _input: string,
        _runId: string,
        _parent?: string,
        _tags?: string[],
        _metadata?: unknown,
        runName?: string,
      ) => {
        if (runName) started.push(runName);
      },
    } as unknown as BaseCallbackHandler;
    const result = await agent.invoke(
      { messages: [new HumanMessage('chart')] },
      { callbacks: [recorder] },
    );
    const answer = toolMessages(result.messages).at(-1)!;
    expect(answer.text).toBe('3 points');
    expect(answer.artifact).toEqual({ png: 'iVBOR' });
    expect(started).toEqual(expect.arrayContaining(['call_tool', 'render_chart']));
  });
});

describe("createToolSearchSelector with expose: 'proxy'", () => {
  it('selects the meta-tools and pins only, and runs loaded tools through call_tool in a ToolNode', async () => {
    const log: CallLog = [];
    const search = createToolSearchSelector({
      toolSearch: true,
      tools: createCatalog(log),
      expose: 'proxy',
      alwaysLoaded: ['list_files'],
    });
    const model = scriptedModel([
      step('load_tool', { toolName: 'create_issue' }),
      callTool('create_issue', { repo: 'acme/app', title: 'Crash' }),
      { answer: 'Opened.' },
    ]);
    const bound: string[][] = [];
    const requests: { tools: unknown[]; messages: unknown[] }[] = [];
    const callModel = async (state: typeof MessagesAnnotation.State, config: RunnableConfig) => {
      const tools = await search.selectTools(state.messages, config);
      bound.push(tools.map((selected) => selected.name));
      requests.push({
        tools: tools.map((selected) => convertToOpenAITool(selected)),
        messages: state.messages.map(messageFields),
      });
      return { messages: [await model.bindTools(tools).invoke(state.messages, config)] };
    };
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('model', callModel)
      .addNode('tools', new ToolNode(search.tools))
      .addEdge(START, 'model')
      .addConditionalEdges('model', toolsCondition, ['tools', END])
      .addEdge('tools', 'model')
      .compile();
    const result = await graph.invoke({ messages: [new HumanMessage('Open an issue')] });
    const expected = [...PROXY_META, 'list_files'];
    expect(bound).toEqual([expected, expected, expected]);
    expect(log).toEqual(['create_issue']);
    expect(toolMessages(result.messages).at(-1)!.text).toBe('Opened "Crash"');
    expectStablePrefix(requests, 'LangGraph');
  });
});
