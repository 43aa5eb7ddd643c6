import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

/** A tool result the model can see in its prompt. */
export interface SeenToolResult {
  toolName: string;
  output: unknown;
}

/** What a scripted model is shown on each call. */
export interface ModelTurn {
  /** Calls made so far, this one excluded. */
  call: number;
  /** Names of the tools sent with this call. */
  toolNames: string[];
  /** Tool results in the prompt, oldest first. */
  toolResults: SeenToolResult[];
  /** The system text of the prompt. */
  system: string;
}

/**
 * What the model does on a call: call a tool, answer, or fail (a provider error, which ends the
 * request before the step's results are kept).
 */
export type ModelAction =
  | { toolName: string; input: Record<string, unknown> }
  | { text: string }
  | { error: string };

/**
 * A model that answers each call from a script, through ai's real `MockLanguageModelV4`, so the
 * Mastra agent loop runs for real. The script sees the tools it was sent and the results so far.
 */
export function createScriptedModel(
  script: (turn: ModelTurn) => ModelAction | Promise<ModelAction>,
): MockLanguageModelV4 & {
  turns: ModelTurn[];
} {
  const turns: ModelTurn[] = [];
  const next = async (options: LanguageModelV4CallOptions) => {
    const turn = readTurn(options, turns.length);
    turns.push(turn);
    const action = await script(turn);
    if ('error' in action) throw new Error(action.error);
    return { turn, action };
  };
  const finish = (action: ModelAction) => ({
    finishReason: { unified: 'text' in action ? 'stop' : 'tool-calls', raw: undefined } as const,
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
  });
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const { turn, action } = await next(options);
      return {
        content: [
          'text' in action
            ? { type: 'text' as const, text: action.text }
            : {
                type: 'tool-call' as const,
                toolCallId: `call-${turn.call}`,
                toolName: action.toolName,
                input: JSON.stringify(action.input),
              },
        ],
        ...finish(action),
        warnings: [],
      };
    },
    doStream: async (options) => {
      const { turn, action } = await next(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if ('text' in action) {
        parts.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: action.text },
          { type: 'text-end', id: 't' },
        );
      } else {
        parts.push({
          type: 'tool-call',
          toolCallId: `call-${turn.call}`,
          toolName: action.toolName,
          input: JSON.stringify(action.input),
        });
      }
      parts.push({ type: 'finish', ...finish(action) });
      return { stream: streamOf(parts) };
    },
  });
  return Object.assign(model, { turns });
}

function streamOf<T>(items: T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

function readTurn(options: LanguageModelV4CallOptions, call: number): ModelTurn {
  const toolNames = (options.tools ?? []).map((tool) => tool.name);
  const toolResults: SeenToolResult[] = [];
  const system: string[] = [];
  for (const message of options.prompt) {
    if (message.role === 'system') system.push(message.content);
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      toolResults.push({
        toolName: part.toolName,
        output:
          output.type === 'json' ? output.value : output.type === 'text' ? output.value : output,
      });
    }
  }
  return { call, toolNames, toolResults, system: system.join('\n') };
}
