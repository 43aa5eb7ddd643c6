/**
 * The AI SDK rows: `generateText` with the recording model, one call per user turn, the
 * conversation's messages passed back on the next turn as an application does. "Every tool" sends
 * the whole catalog as `tools`; the adapter rows pass `toolSearch.tools` and `prepareStep`.
 */
import { generateText, jsonSchema, type ModelMessage, stepCountIs, type Tool, tool } from 'ai';
import { createToolSearch } from 'tool-search-ai-sdk';
import { createRecordingModel } from './cost-ai-model';
import { catalogToolResult, SYSTEM_PROMPT } from './cost-recorder';
import { COST_TOP_K, type CostRow, maxTurnSteps, withExpose } from './cost-row';
import type { Exposure } from './cost-script';
import type { DataTool } from './data';

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

function aiTools(catalog: readonly DataTool[]): Record<string, Tool> {
  const record: Record<string, Tool> = {};
  for (const data of catalog) {
    record[data.id] = tool({
      description: data.description,
      inputSchema: jsonSchema((data.inputSchema ?? { type: 'object' }) as JsonSchemaInput),
      execute: async () => catalogToolResult(data.id),
    });
  }
  return record;
}

function aiSdkRow(exposure: Exposure): CostRow {
  const search = exposure !== 'every-tool';
  return {
    key: search ? `ai-sdk-${exposure}` : 'every-tool',
    label: search
      ? `tool-search-ai-sdk, expose: '${exposure}'`
      : 'every tool on every step (AI SDK, no tool search)',
    exposure,
    async prepare(data) {
      const tools = aiTools(data.tools);
      return {
        async play(conversation, recorder) {
          const toolSearch = search
            ? createToolSearch(withExpose({ tools, search: { topK: COST_TOP_K } }, exposure))
            : undefined;
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
export const everyToolRow = aiSdkRow('every-tool');
/** `tool-search-ai-sdk` in each exposure. */
export const aiSdkRows = [aiSdkRow('tools'), aiSdkRow('proxy')];
