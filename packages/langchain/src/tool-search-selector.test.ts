import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { type CallLog, createCatalog, type Step, scriptedModel } from './testing/fixtures';
import { createToolSearchSelector } from './tool-search-selector';

function buildGraph(steps: Step[], log: CallLog, checkpointer = new MemorySaver()) {
  const search = createToolSearchSelector({
    toolSearch: true,
    expose: 'tools',
    tools: createCatalog(log),
  });
  const model = scriptedModel(steps);
  const bound: string[][] = [];
  const callModel = async (state: typeof MessagesAnnotation.State, config: RunnableConfig) => {
    const tools = await search.selectTools(state.messages, config);
    bound.push(tools.map((tool) => tool.name));
    return { messages: [await model.bindTools(tools).invoke(state.messages, config)] };
  };
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('model', callModel)
    .addNode('tools', new ToolNode(search.tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', toolsCondition, ['tools', END])
    .addEdge('tools', 'model')
    .compile({ checkpointer });
  return { graph, bound, search };
}

const tools = (messages: BaseMessage[]) =>
  messages.filter((message) => ToolMessage.isInstance(message));

describe('createToolSearchSelector', () => {
  it('drives a hand-built LangGraph loop: search, load, call, answer', async () => {
    const log: CallLog = [];
    const { graph, bound } = buildGraph(
      [
        { calls: [{ name: 'search_tools', args: { query: 'open github issue' } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'create_issue' } }] },
        { calls: [{ name: 'create_issue', args: { repo: 'acme/app', title: 'Crash' } }] },
        { answer: 'Opened.' },
      ],
      log,
    );
    const result = await graph.invoke(
      { messages: [new HumanMessage('Open an issue')] },
      { configurable: { thread_id: 'g1' } },
    );
    const meta = ['search_tools', 'load_tool'];
    expect(bound).toEqual([meta, meta, [...meta, 'create_issue'], [...meta, 'create_issue']]);
    expect(log).toEqual(['create_issue']);
    expect(tools(result.messages).at(-1)!.text).toBe('Opened "Crash"');
  });

  it('guards catalog tools in the ToolNode and reads loads from the graph state', async () => {
    const log: CallLog = [];
    const { graph } = buildGraph(
      [
        { calls: [{ name: 'send_email', args: { to: 'a@example.com' } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'send_email' } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'send_email' } }] },
        { answer: 'ok' },
      ],
      log,
    );
    const result = await graph.invoke(
      { messages: [new HumanMessage('mail')] },
      { configurable: { thread_id: 'g2' } },
    );
    const [refusal, first, second] = tools(result.messages);
    expect(refusal!.text).toMatch(/not loaded/);
    expect(log).toEqual([]);
    expect(JSON.parse(first!.text)).toMatchObject({
      success: true,
      message: expect.stringMatching(/loaded successfully/),
      loaded: ['send_email'],
    });
    // The second load sees the first in the messages the ToolNode passed to the meta-tool.
    expect(second!.text).toMatch(/already loaded/);
  });

  it('selects from messages alone, without a thread', async () => {
    const search = createToolSearchSelector({
      toolSearch: true,
      expose: 'tools',
      tools: createCatalog([]),
      alwaysLoaded: ['list_files'],
    });
    const messages = [
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c1', name: 'load_tool', args: { toolName: 'get_weather' } }],
      }),
      new ToolMessage({
        tool_call_id: 'c1',
        content: JSON.stringify({ success: true, toolName: 'get_weather', message: 'ok' }),
      }),
    ];
    expect((await search.selectTools(messages)).map((tool) => tool.name)).toEqual([
      'search_tools',
      'load_tool',
      'list_files',
      'get_weather',
    ]);
    expect(await search.checkToolCall('get_weather', messages)).toBeUndefined();
    expect(await search.checkToolCall('send_email', messages)).toMatch(/not loaded/);
    expect(await search.checkToolCall('not_in_catalog', messages)).toBeUndefined();
  });

  it('rejects duplicate tool names', () => {
    const [weather] = createCatalog([]);
    expect(() =>
      createToolSearchSelector({ toolSearch: true, expose: 'tools', tools: [weather!, weather!] }),
    ).toThrow(/named "get_weather"/);
  });
});
