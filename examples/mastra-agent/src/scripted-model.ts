import { MockLanguageModelV4 } from 'ai/test';

/** One thing the task needs: what to search for and how to call the tool found. */
export interface Intent {
  query: string;
  input: Record<string, unknown>;
}

type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];

/**
 * A scripted stand-in for an LLM, so the example runs offline. For each intent it searches,
 * loads the top result, calls it, then answers. It reads only what Mastra really sends it (the
 * tool results in the prompt), so a wrong ranking would show.
 */
export function createScriptedModel(intents: readonly Intent[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const action = decide(intents, toolResults(prompt));
      return {
        content: [
          'text' in action
            ? { type: 'text', text: action.text }
            : {
                type: 'tool-call',
                toolCallId: `call-${Math.random().toString(36).slice(2)}`,
                toolName: action.toolName,
                input: JSON.stringify(action.input),
              },
        ],
        finishReason: { unified: 'text' in action ? 'stop' : 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
}

type Action = { toolName: string; input: Record<string, unknown> } | { text: string };

function decide(
  intents: readonly Intent[],
  results: { toolName: string; output: unknown }[],
): Action {
  const findings: string[] = [];
  let position = 0;
  let chosen: string | undefined;
  // Replay the conversation: each intent ends with a call of the tool it chose.
  for (const result of results) {
    if (result.toolName === 'search_tools') {
      chosen = (result.output as { results: { name: string }[] }).results[0]?.name;
    } else if (chosen && result.toolName === chosen) {
      findings.push(`${chosen} → ${JSON.stringify(result.output)}`);
      position++;
      chosen = undefined;
    }
  }
  const intent = intents[position];
  if (!intent) return { text: `Done. ${findings.join('; ')}` };
  const last = results.at(-1);
  if (!chosen) return { toolName: 'search_tools', input: { query: intent.query } };
  if (last?.toolName === 'search_tools')
    return { toolName: 'load_tool', input: { toolName: chosen } };
  return { toolName: chosen, input: intent.input };
}

function toolResults(prompt: Prompt): { toolName: string; output: unknown }[] {
  const results: { toolName: string; output: unknown }[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.output.type === 'json')
        results.push({ toolName: part.toolName, output: part.output.value });
    }
  }
  return results;
}
