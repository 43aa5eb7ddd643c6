// A scripted model on ai's own MockLanguageModelV4 (from `ai/test`), for the harnesses of the
// AI SDK and Mastra READMEs: it moves as agent-script.ts says and records what it was sent.
import { MockLanguageModelV4 } from 'ai/test';
import { type CallRecord, type Move, nextMove, type SeenResult } from './agent-script.ts';

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

/** Creates the model; `calls` receives one record per model call. */
export function createScriptedModel(calls: CallRecord[]): MockLanguageModelV4 {
  const decide = (options: CallOptions): Move => {
    const tools = (options.tools ?? []).map((tool) => tool.name);
    const move = nextMove(seenResults(options), tools);
    calls.push({ tools, move });
    return move;
  };
  const finish = (move: Move) => ({
    finishReason: { unified: 'toolName' in move ? 'tool-calls' : 'stop', raw: undefined } as const,
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
  });
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const move = decide(options);
      return {
        content: [
          'toolName' in move
            ? {
                type: 'tool-call' as const,
                toolCallId: `call-${calls.length}`,
                toolName: move.toolName,
                input: JSON.stringify(move.input),
              }
            : { type: 'text' as const, text: move.text },
        ],
        ...finish(move),
        warnings: [],
      };
    },
    doStream: async (options) => {
      const move = decide(options);
      const parts =
        'toolName' in move
          ? [
              {
                type: 'tool-call' as const,
                toolCallId: `call-${calls.length}`,
                toolName: move.toolName,
                input: JSON.stringify(move.input),
              },
            ]
          : [
              { type: 'text-start' as const, id: 'text' },
              { type: 'text-delta' as const, id: 'text', delta: move.text },
              { type: 'text-end' as const, id: 'text' },
            ];
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start' as const, warnings: [] });
          for (const part of parts) controller.enqueue(part);
          controller.enqueue({ type: 'finish' as const, ...finish(move) });
          controller.close();
        },
      });
      return { stream };
    },
  });
}

function seenResults(options: CallOptions): SeenResult[] {
  const seen: SeenResult[] = [];
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      seen.push({
        toolName: part.toolName,
        output: 'value' in part.output ? part.output.value : undefined,
      });
    }
  }
  return seen;
}
