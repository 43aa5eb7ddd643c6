// Supplies what the tool-search-ai-sdk README's main snippet declares (`model`, `catalog`), so the
// smoke test runs the snippet offline: ai's own MockLanguageModelV4, scripted by agent-script.ts.
import { type LanguageModel, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { type CallRecord, verifyCalls } from './agent-script.ts';
import { createScriptedModel } from './ai-model.ts';

const calls: CallRecord[] = [];
const runs: string[] = [];

export const catalog: ToolSet = {
  get_weather: tool({
    description: 'Current weather and a three-day forecast for a city',
    inputSchema: z.object({ city: z.string().describe('City name') }),
    execute: async ({ city }) => {
      runs.push('get_weather');
      return { city, sky: 'clear' };
    },
  }),
  send_email: tool({
    description: 'Send an email to a recipient',
    inputSchema: z.object({ to: z.string(), body: z.string() }),
    execute: async () => ({ sent: true }),
  }),
  create_issue: tool({
    description: 'Open an issue in a GitHub repository',
    inputSchema: z.object({ repo: z.string(), title: z.string() }),
    execute: async () => ({ number: 1 }),
  }),
};

export const model: LanguageModel = createScriptedModel(calls);

/** Runs after the snippet: throws unless it searched, loaded and called a catalog tool. */
export function verify(): void {
  verifyCalls(calls);
  if (!runs.includes('get_weather')) throw new Error('README harness: get_weather never ran');
}
