/**
 * The recording model of the AI SDK and Mastra rows: ai's own `MockLanguageModelV4` (`ai/test`),
 * which turns each call's options (the tools and prompt the framework built) into a
 * {@link ModelRequest}, and answers with the scripted conversation's move.
 */
import { MockLanguageModelV4 } from 'ai/test';
import type { ConversationRecorder } from './cost-recorder';
import type {
  ContentBlock,
  ConversationMessage,
  ModelRequest,
  ToolDefinition,
} from './cost-request';
import type { ModelAction, ModelView, SeenResult } from './cost-script';

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type PromptMessage = CallOptions['prompt'][number];

/** A `MockLanguageModelV4` that records every call and plays the conversation. */
export function createRecordingModel(recorder: ConversationRecorder): MockLanguageModelV4 {
  const next = (options: CallOptions): ModelAction => {
    const { request, view } = fromCallOptions(options);
    return recorder.respond(request, view);
  };
  const finish = (action: ModelAction) => ({
    finishReason: { unified: 'text' in action ? 'stop' : 'tool-calls', raw: undefined } as const,
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
  });
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const action = next(options);
      return {
        content: [
          'text' in action
            ? { type: 'text' as const, text: action.text }
            : {
                type: 'tool-call' as const,
                toolCallId: action.id,
                toolName: action.toolName,
                input: JSON.stringify(action.input),
              },
        ],
        ...finish(action),
        warnings: [],
      };
    },
    doStream: async (options) => {
      const action = next(options);
      const parts =
        'text' in action
          ? [
              { type: 'text-start' as const, id: 'text' },
              { type: 'text-delta' as const, id: 'text', delta: action.text },
              { type: 'text-end' as const, id: 'text' },
            ]
          : [
              {
                type: 'tool-call' as const,
                toolCallId: action.id,
                toolName: action.toolName,
                input: JSON.stringify(action.input),
              },
            ];
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start' as const, warnings: [] });
          for (const part of parts) controller.enqueue(part);
          controller.enqueue({ type: 'finish' as const, ...finish(action) });
          controller.close();
        },
      });
      return { stream };
    },
  });
}

/** The request an AI SDK model call carries, and what the model sees of it. */
export function fromCallOptions(options: CallOptions): { request: ModelRequest; view: ModelView } {
  const tools: ToolDefinition[] = (options.tools ?? []).map((tool) =>
    tool.type === 'function'
      ? { name: tool.name, description: tool.description, inputSchema: tool.inputSchema }
      : { name: tool.name, inputSchema: tool.args },
  );
  const system: string[] = [];
  const messages: ConversationMessage[] = [];
  const results: SeenResult[] = [];
  for (const message of options.prompt) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    const content = message.content.flatMap((part) => toBlocks(part, results));
    if (content.length > 0) {
      messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content });
    }
  }
  return {
    request: { tools, system: system.join('\n\n'), messages },
    view: { toolNames: tools.map((tool) => tool.name), results },
  };
}

type Part = Exclude<PromptMessage, { role: 'system' }>['content'][number];

function toBlocks(part: Part, results: SeenResult[]): ContentBlock[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'tool-call':
      return [{ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input }];
    case 'tool-result': {
      const output = part.output as { type: string; value?: unknown; reason?: unknown };
      const value = 'value' in output ? output.value : output.reason;
      results.push({ toolName: part.toolName, output: value });
      const content = typeof value === 'string' ? value : JSON.stringify(value ?? null);
      return [{ type: 'tool_result', toolUseId: part.toolCallId, content }];
    }
    default:
      return [];
  }
}
