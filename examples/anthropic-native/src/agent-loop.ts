// The part to copy: a custom agent loop on @anthropic-ai/sdk whose tools are Anthropic-deferred
// and whose search is answered by tool-search-core's index.
import type Anthropic from '@anthropic-ai/sdk';
import { createToolSearchEngine } from 'tool-search-core';
import { createAnthropicToolSearch } from 'tool-search-core/anthropic';
import type { AppTool } from './catalog';

/** One model call of the run. */
export interface Step {
  /** What the model did: a search, a tool call, or the answer. */
  action: string;
  /** For a search, the tools it referenced, best first. */
  referenced?: string[];
}

/** Runs one task to its answer, at most `maxSteps` model calls. */
export async function runAgent(options: {
  client: Anthropic;
  model: string;
  catalog: Record<string, AppTool>;
  prompt: string;
  maxSteps?: number;
}): Promise<{ steps: Step[]; answer: string; tools: Anthropic.ToolUnion[] }> {
  const { client, catalog } = options;
  const engine = createToolSearchEngine({
    tools: catalog,
    describe: (tool, key) => ({
      id: key,
      description: tool.description,
      inputSchema: tool.input_schema,
    }),
  });
  const session = engine.createSession({ threadId: 'example' });
  const search = await createAnthropicToolSearch(session);
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: options.prompt }];
  const steps: Step[] = [];
  for (let step = 0; step < (options.maxSteps ?? 8); step++) {
    const message = await client.messages.create({
      model: options.model,
      max_tokens: 1024,
      tools: search.tools, // the same array every step: the prompt cache survives each load
      messages,
    });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') {
      const answer = message.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('');
      steps.push({ action: 'answer' });
      return { steps, answer, tools: search.tools };
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      if (search.isSearchCall(block)) {
        const result = await search.answer(block);
        const referenced = Array.isArray(result.content)
          ? result.content.map((part) => part.tool_name)
          : [];
        steps.push({ action: `search_tools(${JSON.stringify(block.input)})`, referenced });
        results.push(result);
      } else if (await session.isActive(block.name)) {
        steps.push({ action: block.name });
        const output = catalog[block.name]!.run(block.input as Record<string, unknown>);
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: JSON.stringify(output),
        });
      } else {
        steps.push({ action: `${block.name} (refused: not loaded)` });
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: `Unknown tool ${block.name}`,
          is_error: true,
        });
      }
    }
    messages.push({ role: 'user', content: results });
  }
  return { steps, answer: '(no answer within the step limit)', tools: search.tools };
}
