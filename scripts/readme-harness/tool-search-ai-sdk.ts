// Supplies what the tool-search-ai-sdk README's snippets declare, so the smoke test runs them
// offline: `model`, ai's own MockLanguageModelV4 scripted by agent-script.ts, for the main snippet;
// `anthropic` and `openai`, the real AI SDK providers whose `fetch` is native-script.ts's scripted
// endpoint, for the provider-native ones; `catalog` for all.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { type CallRecord, verifyCalls } from './agent-script.ts';
import { createScriptedModel } from './ai-model.ts';
import { createNativeFetch, verifyNative } from './native-script.ts';

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

/**
 * "Hundreds of tools", as the snippet's comment says: reports of a few dozen tokens each, so the
 * catalog weighs more than the `toolSearch: 'auto'` threshold and is searched.
 */
for (let index = 0; index < 200; index++) {
  catalog[`inventory_report_${index}`] = tool({
    description: `Inventory report number ${index} for warehouse region ${index % 17}: stock levels, reorder points and supplier lead times.`,
    inputSchema: z.object({ region: z.string(), quarter: z.number().int() }),
    execute: async () => ({ report: index }),
  });
}

export const model: LanguageModel = createScriptedModel(calls);

const anthropicEndpoint = createNativeFetch('anthropic');
const openaiEndpoint = createNativeFetch('openai');
export const anthropic = createAnthropic({ apiKey: 'offline', fetch: anthropicEndpoint.fetch });
export const openai = createOpenAI({ apiKey: 'offline', fetch: openaiEndpoint.fetch });

/** Runs after each snippet: throws unless it searched, loaded and called a catalog tool. */
export function verify(): void {
  const native = [
    ['anthropic', anthropicEndpoint.requests],
    ['openai', openaiEndpoint.requests],
  ] as const;
  for (const [provider, requests] of native) {
    if (requests.length > 0) verifyNative(provider, requests);
  }
  if (calls.length > 0 || native.every(([, requests]) => requests.length === 0)) verifyCalls(calls);
  if (!runs.includes('get_weather')) throw new Error('README harness: get_weather never ran');
}
