import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { DynamicStructuredTool, tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

/** Every catalog call, by tool name: a tool that never ran is absent. */
export type CallLog = string[];

/** A small catalog in the three shapes the middleware accepts. */
export function createCatalog(log: CallLog) {
  const getWeather = tool(
    ({ city }) => {
      log.push('get_weather');
      return `Sunny in ${city}`;
    },
    {
      name: 'get_weather',
      description: 'Get the current weather forecast for a city',
      schema: z.object({ city: z.string().describe('City name') }),
    },
  );
  const sendEmail = tool(
    (input: { to: string }) => {
      log.push('send_email');
      return `Sent to ${input.to}`;
    },
    {
      name: 'send_email',
      description: 'Send an email message to a recipient',
      schema: {
        type: 'object',
        properties: { to: { type: 'string', description: 'Recipient address' } },
        required: ['to'],
      },
    },
  );
  const createIssue = new DynamicStructuredTool({
    name: 'create_issue',
    description: 'Open an issue in a GitHub repository',
    schema: z.object({ repo: z.string(), title: z.string() }),
    func: async ({ title }) => {
      log.push('create_issue');
      return `Opened "${title}"`;
    },
  });
  const fillers = ['list_files', 'translate_text', 'create_invoice', 'book_meeting'].map((name) =>
    tool(() => name, {
      name,
      description: `${name.replace('_', ' ')} in the workspace`,
      schema: z.object({}),
    }),
  );
  return [getWeather, sendEmail, createIssue, ...fillers];
}

/** A step of a scripted model: tool calls, or a final answer. */
export type Step =
  | { calls: { name: string; args: Record<string, unknown> }[] }
  | { answer: string };

let nextId = 0;

/**
 * A `fakeModel()` that plays the steps, with explicit message ids so two models on one
 * checkpointed thread never overwrite each other's messages.
 */
export function scriptedModel(steps: Step[]) {
  const model = fakeModel();
  for (const step of steps) {
    model.respond((_messages: BaseMessage[]) => {
      nextId += 1;
      return 'answer' in step
        ? new AIMessage({ id: `ai-${nextId}`, content: step.answer })
        : new AIMessage({
            id: `ai-${nextId}`,
            content: '',
            tool_calls: step.calls.map((call, position) => ({
              ...call,
              id: `call-${nextId}-${position}`,
              type: 'tool_call' as const,
            })),
          });
    });
  }
  return model;
}

/**
 * Records what each model call is given: the tool names, the system prompt, and the request as a
 * provider gets it (tool definitions as OpenAI-format JSON, then the system message and the
 * messages). Place it after the middleware under test.
 */
export function recordBoundTools() {
  const calls: string[][] = [];
  const systemPrompts: string[] = [];
  const requests: { tools: unknown[]; messages: unknown[] }[] = [];
  const middleware = createMiddleware({
    name: 'RecordBoundTools',
    wrapModelCall: (request, handler) => {
      calls.push(request.tools.map((tool) => String((tool as { name: unknown }).name)));
      systemPrompts.push(request.systemMessage.text);
      requests.push({
        tools: request.tools.map((tool) => convertToOpenAITool(tool as never)),
        messages: [request.systemMessage, ...request.messages].map(messageFields),
      });
      return handler(request);
    },
  });
  return { calls, systemPrompts, requests, middleware };
}

/** A message as a provider request holds it: role, content, tool calls, the call it answers. */
export function messageFields(message: BaseMessage) {
  return {
    type: message.type,
    content: message.content,
    tool_calls: (message as { tool_calls?: unknown }).tool_calls,
    tool_call_id: (message as { tool_call_id?: unknown }).tool_call_id,
  };
}
