import { MockLanguageModelV4 } from 'ai/test';

/** What the stand-in model does for a user message: search with `query`, call with `input`. */
export interface Intent {
  query: string;
  input: Record<string, unknown>;
}

type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];

/**
 * A deterministic stand-in for a chat model. It acts only on what it is sent: when the
 * conversation already loaded a tool that matches the task (a `load_tool` result in its prompt),
 * it runs it through `call_tool`; otherwise it searches, loads the top result, runs it, and
 * answers from the tool's output.
 */
export function createScriptedModel(intents: Record<string, Intent>): MockLanguageModelV4 {
  let callNumber = 0;
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
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
        const ready = loadedTools(prompt).find((name) =>
          words.every((word) => name.includes(word)),
        );
        return ready
          ? toolCall('call_tool', { name: ready, arguments: intent.input })
          : toolCall('search_tools', { query: intent.query });
      }
      const result = last?.role === 'tool' ? last.content.at(-1) : undefined;
      if (result?.type !== 'tool-result' || result.output.type !== 'json') return answer('Done.');
      const output = result.output.value as Record<string, unknown>;
      if (result.toolName === 'search_tools') {
        const [top] = output.results as { name: string }[];
        return top ? toolCall('load_tool', { toolName: top.name }) : answer('No tool fits.');
      }
      if (result.toolName === 'load_tool')
        return toolCall('call_tool', { name: output.toolName, arguments: intent.input });
      return answer(`Done with ${calledName(prompt)}: ${output.id} (${output.url}).`);
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

/** The tools the conversation loaded: the names of the `load_tool` results in the prompt. */
function loadedTools(prompt: Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' &&
          part.toolName === 'load_tool' &&
          part.output.type === 'json'
            ? [(part.output.value as { toolName?: string }).toolName ?? '']
            : [],
        )
      : [],
  );
}

/** The tool the last `call_tool` call ran. */
function calledName(prompt: Prompt): string {
  const call = prompt
    .findLast((message) => message.role === 'assistant')
    ?.content.findLast((part) => part.type === 'tool-call');
  return call?.type === 'tool-call' ? String((call.input as { name?: unknown }).name) : '';
}

function lastUserText(prompt: Prompt): string {
  const user = prompt.findLast((message) => message.role === 'user');
  const part = user?.content.find((candidate) => candidate.type === 'text');
  return part?.type === 'text' ? part.text : '';
}
