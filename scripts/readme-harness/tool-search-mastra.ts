// Supplies what the tool-search-mastra README's main snippet declares (`model`), so the smoke test
// runs the snippet offline: a real Mastra Agent driven by ai's MockLanguageModelV4, scripted by
// agent-script.ts.
import type { MastraModelConfig } from '@mastra/core/llm';
import { type CallRecord, verifyCalls } from './agent-script.ts';
import { createScriptedModel } from './ai-model.ts';

const calls: CallRecord[] = [];

// Mastra types a V4 model's doGenerate as streaming; the mock is a real LanguageModelV4.
export const model = createScriptedModel(calls) as unknown as MastraModelConfig;

/** Runs after the snippet: throws unless the agent searched, loaded and called a catalog tool. */
export function verify(): void {
  verifyCalls(calls);
}
