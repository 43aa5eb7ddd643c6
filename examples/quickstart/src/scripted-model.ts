import type { SearchToolsOutput } from 'tool-search-core';

/** What the model sees each step: the tools it was sent and the last tool result. */
export interface ModelInput {
  toolNames: readonly string[];
  lastResult: { toolName: string; output: unknown } | undefined;
}

export type ModelAction =
  | { type: 'tool-call'; toolName: string; input: Record<string, unknown> }
  | { type: 'answer'; text: string };

/** One thing the task needs: what to search for, and how to call the tool found. */
export interface Intent {
  query: string;
  input: Record<string, unknown>;
  summarize: (output: unknown) => string;
}

/**
 * A scripted stand-in for an LLM, so the demo runs offline: for each intent it searches, runs the
 * top result through `call_tool` (its input schema came with the search; a result without one is
 * loaded first), then answers from what the tools returned. It acts only on what the loop really
 * gives it (search results, the tools it was sent), so a wrong ranking shows.
 */
export function createScriptedModel(
  intents: readonly Intent[],
): (input: ModelInput) => ModelAction {
  let current = 0;
  let chosen: string | undefined;
  const findings: string[] = [];
  return ({ toolNames, lastResult }) => {
    const intent = intents[current];
    if (!intent) return { type: 'answer', text: findings.join(' ') };
    if (lastResult?.toolName === 'search_tools') {
      const found = lastResult.output as SearchToolsOutput;
      chosen = found.results[0]?.name;
      // The best results come with their input schemas: the top one can run at once.
      const defined = found.tools?.some((tool) => tool.name === chosen) ?? false;
      if (chosen && defined && toolNames.includes('call_tool'))
        return {
          type: 'tool-call',
          toolName: 'call_tool',
          input: { name: chosen, arguments: intent.input },
        };
      if (chosen) return { type: 'tool-call', toolName: 'load_tool', input: { toolName: chosen } };
    }
    if (chosen && lastResult?.toolName === 'call_tool') {
      findings.push(intent.summarize(lastResult.output));
      current++;
      chosen = undefined;
      const next = intents[current];
      if (!next) return { type: 'answer', text: findings.join(' ') };
      return { type: 'tool-call', toolName: 'search_tools', input: { query: next.query } };
    }
    if (chosen && lastResult?.toolName === 'load_tool' && toolNames.includes('call_tool'))
      return {
        type: 'tool-call',
        toolName: 'call_tool',
        input: { name: chosen, arguments: intent.input },
      };
    return { type: 'tool-call', toolName: 'search_tools', input: { query: intent.query } };
  };
}
