/**
 * The Mastra rows: a real `Agent` whose model is the recording `MockLanguageModelV4`, with a tool
 * search processor as its input processor: Mastra's built-in `ToolSearchProcessor`
 * (`@mastra/core/processors`) or the `tool-search-mastra` drop-in. One `generate` per user turn;
 * the conversation is kept by Mastra's memory (`MockMemory` from `@mastra/core/memory`, its
 * in-memory store), as a Mastra application keeps it. (Resending `response.messages` instead
 * makes Mastra regroup a turn's tool calls on the next turn, which changes the prompt's start.)
 */
import { Agent } from '@mastra/core/agent';
import { MockMemory } from '@mastra/core/memory';
import type { Processor } from '@mastra/core/processors';
import { ToolSearchProcessor as MastraToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { ToolSearchProcessor } from 'tool-search-mastra';
import { createRecordingModel } from './cost-ai-model';
import { providerToolNames } from './cost-names';
import { CatalogResults, SYSTEM_PROMPT } from './cost-recorder';
import {
  type AdapterRowSpec,
  adapterOptions,
  COST_TOP_K,
  type CostRow,
  exposureOf,
  maxTurnSteps,
} from './cost-row';
import type { Exposure } from './cost-script';
import type { DataTool } from './data';

type AgentConfig = ConstructorParameters<typeof Agent>[0];
type MastraTools = ConstructorParameters<typeof MastraToolSearchProcessor>[0]['tools'];
type MastraInputSchema = NonNullable<Parameters<typeof createTool>[0]['inputSchema']>;

/**
 * Mastra writes a tool call whose name has a character outside `[A-Za-z0-9_-]` into the prompt as
 * `unknown_tool`, so a Mastra application names its tools within that set (`providerToolNames`).
 */
const mastraNames = providerToolNames;

function mastraTools(
  catalog: readonly DataTool[],
  names: ReadonlyMap<string, string>,
  results: CatalogResults,
): MastraTools {
  const record: MastraTools = {};
  for (const data of catalog) {
    const name = names.get(data.id)!;
    record[name] = createTool({
      id: name,
      description: data.description,
      inputSchema: (data.inputSchema ?? { type: 'object' }) as MastraInputSchema,
      execute: async () => results.result(data.id),
    });
  }
  return record;
}

/**
 * Messages the memory recalls: all of them. Mastra's default keeps the last few, a window that
 * moves every turn and so changes the prompt's start (a cost of its own, not of tool search).
 */
const WHOLE_HISTORY = 1_000_000;

let threads = 0;

function mastraRow(options: {
  key: string;
  label: string;
  exposure: Exposure;
  processor: (tools: MastraTools) => Processor;
}): CostRow {
  return {
    key: options.key,
    label: options.label,
    exposure: options.exposure,
    async prepare(data) {
      const names = mastraNames(data.tools);
      const ids = new Map([...names].map(([id, name]) => [name, id]));
      const results = new CatalogResults();
      const tools = mastraTools(data.tools, names, results);
      return {
        nameOf: (id) => names.get(id) ?? id,
        idOf: (name) => ids.get(name),
        async play(conversation, recorder) {
          results.play(conversation);
          const agent = new Agent({
            id: 'cost-agent',
            name: 'cost-agent',
            instructions: SYSTEM_PROMPT,
            // Mastra types a V4 model's doGenerate as streaming; the mock is a real LanguageModelV4.
            model: createRecordingModel(recorder) as unknown as AgentConfig['model'],
            inputProcessors: [options.processor(tools)] as NonNullable<
              AgentConfig['inputProcessors']
            >,
            memory: new MockMemory({ options: { lastMessages: WHOLE_HISTORY } }),
          });
          const thread = `cost-thread-${threads++}`;
          const requestContext = new RequestContext();
          requestContext.set('mastra__threadId', thread);
          const maxSteps = maxTurnSteps(conversation.plan);
          while (!conversation.finished) {
            await agent.generate(conversation.nextUserMessage(), {
              maxSteps,
              requestContext,
              memory: { thread, resource: 'cost-user' },
            });
          }
        },
        async close() {},
      };
    },
  };
}

/** Mastra's own `ToolSearchProcessor`, as shipped with `@mastra/core`. */
export const mastraBuiltinRow = mastraRow({
  key: 'mastra-builtin',
  label: 'Mastra ToolSearchProcessor (built-in, @mastra/core)',
  exposure: 'tools',
  processor: (tools) =>
    new MastraToolSearchProcessor({ tools, search: { topK: COST_TOP_K } }) as unknown as Processor,
});

/** `tool-search-mastra`'s drop-in processor, one row per spec (`cost-rows.ts`). */
export function mastraRows(specs: readonly AdapterRowSpec[]): CostRow[] {
  return specs.map((spec) =>
    mastraRow({
      key: spec.key,
      label: spec.label,
      exposure: exposureOf(spec.options),
      processor: (tools) =>
        new ToolSearchProcessor(adapterOptions({ tools }, spec.options)) as unknown as Processor,
    }),
  );
}
