// The part to copy: a custom agent loop on openai's Responses API whose functions are deferred
// (in one namespace per service) and whose `tool_search` is answered by tool-search-core's index.
import type OpenAI from 'openai';
import { createToolSearchEngine } from 'tool-search-core';
import { createOpenAIToolSearch } from 'tool-search-core/openai';
import { type AppTool, namespaceOf } from './catalog';

/** One output item the run acted on. */
export interface Step {
  /** What the model did: a search, a function call, or the answer. */
  action: string;
  /** For a search, the functions it loaded, best first. */
  loaded?: string[];
}

/** Runs one task to its answer, at most `maxSteps` model calls. */
export async function runAgent(options: {
  client: OpenAI;
  model: string;
  catalog: Record<string, AppTool>;
  prompt: string;
  maxSteps?: number;
}): Promise<{ steps: Step[]; answer: string; tools: OpenAI.Responses.Tool[] }> {
  const { client, catalog } = options;
  const engine = createToolSearchEngine({
    tools: catalog,
    describe: (tool, key) => ({
      id: key,
      description: tool.description,
      inputSchema: tool.parameters,
    }),
  });
  const session = engine.createSession({ threadId: 'example' });
  const search = await createOpenAIToolSearch(session, { group: (tool) => namespaceOf(tool.id) });
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: options.prompt }];
  const steps: Step[] = [];
  for (let step = 0; step < (options.maxSteps ?? 8); step++) {
    const response = await client.responses.create({
      model: options.model,
      input,
      tools: search.tools, // the same array every step: the prompt cache survives each load
    });
    let acted = false;
    for (const item of response.output) {
      if (search.isSearchCall(item)) {
        acted = true;
        const output = await search.answer(item);
        const loaded = output.tools.flatMap((tool) =>
          tool.type === 'namespace' ? tool.tools : [tool],
        );
        steps.push({
          action: `tool_search(${JSON.stringify(item.arguments)})`,
          loaded: loaded.map((tool) => tool.name),
        });
        input.push(item, output);
      } else if (item.type === 'function_call') {
        acted = true;
        const allowed = await session.isActive(item.name);
        steps.push({
          action: allowed ? `${item.namespace}.${item.name}` : `${item.name} (refused: not loaded)`,
        });
        const output = allowed
          ? JSON.stringify(
              catalog[item.name]!.run(JSON.parse(item.arguments) as Record<string, unknown>),
            )
          : `Unknown tool ${item.name}`;
        input.push(item, { type: 'function_call_output', call_id: item.call_id, output });
      } else if (item.type === 'message') {
        input.push(item);
      }
    }
    if (!acted) {
      steps.push({ action: 'answer' });
      return { steps, answer: response.output_text, tools: search.tools };
    }
  }
  return { steps, answer: '(no answer within the step limit)', tools: search.tools };
}
