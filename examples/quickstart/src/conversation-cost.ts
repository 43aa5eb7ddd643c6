import { encode } from 'gpt-tokenizer';

/** One model request: its prompt in the provider's order, and what the model answered. */
export interface PricedRequest {
  /** Tool definitions, the system prompt, then each message: the blocks of the prompt. */
  blocks: readonly string[];
  /** The model's answer (a tool call's JSON, or the text). */
  output: string;
}

/** What a conversation cost. */
export interface ConversationCost {
  requests: number;
  inputTokens: number;
  /** In base input tokens: one uncached input token costs 1. */
  priced: number;
}

/**
 * Anthropic's prompt cache as its pricing page states it for Claude Sonnet 4.5 (read
 * 2026-12-01): a 5-minute cache write costs 1.25× the base input price, a read 0.1×, an output
 * token 5×, and a prefix shorter than 1,024 tokens is not cached.
 */
const WRITE = 1.25;
const READ = 0.1;
const OUTPUT = 5;
const MINIMUM_CACHED = 1_024;

/**
 * Prices a conversation's requests the way a provider with a prefix cache bills them: the part of
 * a request that repeats the previous request's blocks is read from the cache, the rest is written
 * to it. (The repository's `bench:cost` does the same with each provider's breakpoints.)
 */
export function priceConversation(requests: readonly PricedRequest[]): ConversationCost {
  let previous: number[] = [];
  let cached: string[] = [];
  let inputTokens = 0;
  let priced = 0;
  for (const request of requests) {
    const sizes = request.blocks.map((block) => encode(block).length);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    let shared = 0;
    let sharedTokens = 0;
    while (shared < cached.length && cached[shared] === request.blocks[shared]) {
      sharedTokens += previous[shared]!;
      shared++;
    }
    const read = sharedTokens >= MINIMUM_CACHED ? sharedTokens : 0;
    const written = total >= MINIMUM_CACHED ? total - read : 0;
    priced += read * READ + written * WRITE + (total - read - written);
    priced += encode(request.output).length * OUTPUT;
    inputTokens += total;
    previous = sizes;
    cached = [...request.blocks];
  }
  return { requests: requests.length, inputTokens, priced };
}
