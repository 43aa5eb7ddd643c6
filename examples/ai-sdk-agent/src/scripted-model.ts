import { MockLanguageModelV4 } from 'ai/test';

/** What the stand-in model does for a user message: search with `query`, call with `input`. */
export interface Intent {
  query: string;
  input: Record<string, unknown>;
}

type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];

/**
 * A deterministic stand-in for a chat model. It acts only on what it is sent: it calls a tool it
 * was given when one matches the task, otherwise it searches, loads the top result, calls it,
 * and answers from the tool's output.
 */
export function createScriptedModel(intents: Record<string, Intent>): MockLanguageModelV4 {
  let callNumber = 0;
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt, tools }) => {
      const toolCall = (toolName: string, input: unknown) => ({
        content: [
          {
            type: 'tool-call' as const,
            toolCallId: `call-${callNumber++}`,
            toolName,
            input: JSON.stringify(input),
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage: USAGE,
        warnings: [],
      });
      const intent = intents[lastUserText(prompt)];
      const last = prompt.at(-1);
      if (!intent) return answer("I don't know how to help with that.");
      if (last?.role === 'user') {
        const words = intent.query.split(' ');
        const ready = (tools ?? []).find((tool) => words.every((word) => tool.name.includes(word)));
        return ready
          ? toolCall(ready.name, intent.input)
          : toolCall('search_tools', { query: intent.query });
      }
      const result = last?.role === 'tool' ? last.content.at(-1) : undefined;
      if (result?.type !== 'tool-result' || result.output.type !== 'json') return answer('Done.');
      const output = result.output.value as Record<string, unknown>;
      if (result.toolName === 'search_tools') {
        const [top] = output.results as { name: string }[];
        return top ? toolCall('load_tool', { toolName: top.name }) : answer('No tool fits.');
      }
      if (result.toolName === 'load_tool') return toolCall(output.toolName as string, intent.input);
      return answer(`Done with ${result.toolName}: ${output.id} (${output.url}).`);
    },
  });
}

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

function answer(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

function lastUserText(prompt: Prompt): string {
  const user = prompt.findLast((message) => message.role === 'user');
  const part = user?.content.find((candidate) => candidate.type === 'text');
  return part?.type === 'text' ? part.text : '';
}
