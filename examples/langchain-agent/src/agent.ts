import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';
import { toolSearchMiddleware } from 'tool-search-langchain';
import { createCatalog } from './catalog';

export const TASK =
  'What is the weather in Lisbon this week? If it rains, open a GitHub issue in acme/trips to pack umbrellas and post it to #travel on Slack.';

type Call = { name: string; args: Record<string, unknown> };

/**
 * What the scripted model does for TASK: search, load, and run through `call_tool`, for each of
 * three capabilities (the bound tools never change: `expose: 'proxy'`, the default).
 */
const SCRIPT: (Call[] | string)[] = [
  [{ name: 'search_tools', args: { query: 'get the weather forecast for a city' } }],
  [{ name: 'load_tool', args: { toolName: 'weather_get_forecast' } }],
  [
    {
      name: 'call_tool',
      args: { name: 'weather_get_forecast', arguments: { id: 'lisbon-week', city: 'Lisbon' } },
    },
  ],
  [{ name: 'search_tools', args: { query: 'create github issue' } }],
  [{ name: 'load_tool', args: { toolName: 'github_create_issue' } }],
  [
    {
      name: 'call_tool',
      args: {
        name: 'github_create_issue',
        arguments: { repo: 'acme/trips', title: 'Pack umbrellas for Lisbon' },
      },
    },
  ],
  [{ name: 'search_tools', args: { query: 'post a message to a slack channel' } }],
  [{ name: 'load_tool', args: { toolName: 'slack_create_message' } }],
  [
    {
      name: 'call_tool',
      args: {
        name: 'slack_create_message',
        arguments: { channel: '#travel', title: 'Rain in Lisbon: umbrellas issue opened' },
      },
    },
  ],
  'Rain is expected in Lisbon on the first two days. I opened "Pack umbrellas for Lisbon" in acme/trips and posted it to #travel.',
];

function scriptedModel() {
  const model = fakeModel();
  SCRIPT.forEach((step, index) => {
    // Explicit ids: fakeModel numbers its replies per instance, which collides on a checkpointed thread.
    const id = `scripted-${index}`;
    model.respond(() =>
      typeof step === 'string'
        ? new AIMessage({ id, content: step })
        : new AIMessage({
            id,
            content: '',
            tool_calls: step.map((call, position) => ({
              ...call,
              id: `${id}-${position}`,
              type: 'tool_call' as const,
            })),
          }),
    );
  });
  return model;
}

/** One model step: the tools it was sent, and what it did. */
export interface StepRecord {
  toolsSent: string[];
}

/** Runs TASK through createAgent with the tool-search middleware; returns what happened. */
export async function runExample() {
  const catalog = createCatalog();
  const steps: StepRecord[] = [];
  // Records what each model call is sent, after the tool search narrowed it.
  const recorder = createMiddleware({
    name: 'RecordTools',
    wrapModelCall: (request, handler) => {
      steps.push({
        toolsSent: request.tools.map((tool) => String((tool as { name: unknown }).name)),
      });
      return handler(request);
    },
  });
  const agent = createAgent({
    model: scriptedModel(),
    tools: [],
    middleware: [toolSearchMiddleware({ tools: catalog }), recorder],
    checkpointer: new MemorySaver(),
  });
  const result = await agent.invoke(
    { messages: [new HumanMessage(TASK)] },
    { configurable: { thread_id: 'trip-planning' } },
  );
  const messages: BaseMessage[] = result.messages;
  const toolCalls = messages.flatMap((message) =>
    AIMessage.isInstance(message) ? (message.tool_calls ?? []).map((call) => call.name) : [],
  );
  const toolResults = messages
    .filter((message) => ToolMessage.isInstance(message))
    .map((message) => message.text);
  return {
    catalogSize: catalog.length,
    steps,
    toolCalls,
    toolResults,
    answer: messages.at(-1)?.text ?? '',
  };
}
