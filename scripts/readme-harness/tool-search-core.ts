// Supplies what the tool-search-core README's provider-native snippets declare (`anthropic`,
// `openai`): the real SDK clients, whose `fetch` is native-script.ts's scripted endpoint, so the
// smoke test runs the snippets offline. The README's other snippets declare nothing.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createNativeFetch, verifyNative } from './native-script.ts';

const anthropicEndpoint = createNativeFetch('anthropic');
const openaiEndpoint = createNativeFetch('openai');

export const anthropic = new Anthropic({ apiKey: 'offline', fetch: anthropicEndpoint.fetch });
export const openai = new OpenAI({ apiKey: 'offline', fetch: openaiEndpoint.fetch });

/** Runs after each snippet: checks the API calls a native snippet made (the others make none). */
export function verify(): void {
  if (anthropicEndpoint.requests.length > 0) verifyNative('anthropic', anthropicEndpoint.requests);
  if (openaiEndpoint.requests.length > 0) verifyNative('openai', openaiEndpoint.requests);
}
