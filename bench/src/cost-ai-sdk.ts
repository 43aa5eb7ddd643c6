/**
 * The AI SDK rows: `generateText` with the recording model, one call per user turn, the
 * conversation's messages passed back on the next turn as an application does. "Every tool" sends
 * the whole catalog as `tools`; the adapter rows pass `toolSearch.tools` and `prepareStep`, with
 * the row's options given to `createToolSearch`.
 */
import { generateText, jsonSchema, type ModelMessage, stepCountIs, type Tool, tool } from 'ai';
import { createToolSearch } from 'tool-search-ai-sdk';
import { createRecordingModel } from './cost-ai-model';
import { CatalogResults, SYSTEM_PROMPT } from './cost-recorder';
import {
  type AdapterRowSpec,
  adapterOptions,
  type CostRow,
  exposureOf,
  maxTurnSteps,
} from './cost-row';
import type { DataTool } from './data';

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

function aiTools(catalog: readonly DataTool[], results: CatalogResults): Record<string, Tool> {
  const record: Record<string, Tool> = {};
  for (const data of catalog) {
    record[data.id] = tool({
      description: data.description,
      inputSchema: jsonSchema((data.inputSchema ?? { type: 'object' }) as JsonSchemaInput),
      execute: async () => results.result(data.id),
    });
  }
  return record;
}

/**
 * An AI SDK row: `generateText` with the whole catalog (no `spec`: every tool on every request),
 * or with `tool-search-ai-sdk` built from the row's options.
 */
function aiSdkRow(spec: AdapterRowSpec | undefined): CostRow {
  return {
    key: spec?.key ?? 'every-tool',
    label: spec?.label ?? 'every tool on every step (AI SDK, no tool search)',
    exposure: spec === undefined ? 'every-tool' : exposureOf(spec.options),
    async prepare(data) {
      const results = new CatalogResults();
      const tools = aiTools(data.tools, results);
      return {
        async play(conversation, recorder) {
          results.play(conversation);
          const toolSearch =
            spec === undefined
              ? undefined
              : createToolSearch(adapterOptions({ tools }, spec.options));
          const model = createRecordingModel(recorder);
          const messages: ModelMessage[] = [];
          const steps = maxTurnSteps(conversation.plan);
          while (!conversation.finished) {
            messages.push({ role: 'user', content: conversation.nextUserMessage() });
            const result = await generateText({
              model,
              instructions: SYSTEM_PROMPT,
              messages,
              tools: toolSearch?.tools ?? tools,
              ...(toolSearch && { prepareStep: toolSearch.prepareStep }),
              stopWhen: stepCountIs(steps),
            });
            messages.push(...result.responseMessages);
          }
        },
        async close() {},
      };
    },
  };
}

/** Every catalog tool on every request, through the AI SDK. */
export const everyToolRow = aiSdkRow(undefined);

/** `tool-search-ai-sdk` rows, one per spec (`cost-rows.ts`). */
export function aiSdkRows(specs: readonly AdapterRowSpec[]): CostRow[] {
  return specs.map(aiSdkRow);
}
