/**
 * The price lists `bench:cost` prices conversations with, named and dated by source (bench/README.md
 * quotes each figure). Prices are in base input tokens: one uncached input token costs 1.
 */
import type {
  AnthropicCachePricing,
  CachePricing,
  OpenAiCachePricing,
  PricingOptions,
} from './cost-pricing';
import type { Provider } from './cost-row';

/**
 * Anthropic, Claude Sonnet 4.5 (base input $3 per million tokens), 5-minute cache: writes 1.25×,
 * reads 0.1×, output 5× ($15); minimum cacheable prompt 1,024 tokens; the cache looks back 20
 * blocks from a breakpoint ("Prompt caching" and "Pricing", Claude Developer Platform docs, read
 * 2026-12-01). Tool-use system prompt: 496 tokens with `tool_choice` auto ("Tool use with
 * Claude", pricing section, copy of 2026-07-13, read 2026-12-02). Above 200,000 input tokens
 * (with the 1M-token context window), input $6 and output $22.50: 2× and 1.5× ("Pricing", long
 * context pricing; read 2026-12-02).
 */
export const ANTHROPIC_CACHE: AnthropicCachePricing = {
  kind: 'anthropic',
  label: 'Anthropic (Claude Sonnet 4.5), 5-minute cache',
  writeMultiplier: 1.25,
  readMultiplier: 0.1,
  outputMultiplier: 5,
  minimumCacheableTokens: 1024,
  lookbackBlocks: 20,
  toolUsePromptTokens: 496,
  longContext: { aboveInputTokens: 200_000, inputFactor: 2, outputFactor: 1.5 },
};

/** The same with the 1-hour cache: writes cost 2× base input ("Pricing", read 2026-12-01). */
export const ANTHROPIC_1H_CACHE: AnthropicCachePricing = {
  ...ANTHROPIC_CACHE,
  label: 'Anthropic (Claude Sonnet 4.5), 1-hour cache',
  writeMultiplier: 2,
};

/**
 * OpenAI, GPT-5.4 (base input $2.50 per million tokens; tool search needs gpt-5.4 or later):
 * cached input $0.25 (0.1×), output $15 (6×) (OpenAI, GPT-5.4 model page and "API pricing", read
 * 2026-12-02); caching automatic from 1,024 tokens in 128-token increments, no write premium; the
 * in-memory cache is cleared after 5 to 10 minutes of inactivity, at most an hour ("Prompt
 * caching" guide, read 2026-12-02). Prompts above 272K input tokens cost 2× input and 1.5× output
 * for the full request (GPT-5.4 model page). OpenAI documents no tool-use prompt count; its
 * cookbook ("How to count tokens with tiktoken", section 7, for gpt-4o) adds 12 tokens per
 * request with tools besides the functions themselves.
 */
export const OPENAI_CACHE: OpenAiCachePricing = {
  kind: 'openai',
  label: 'OpenAI (GPT-5.4), in-memory cache',
  cachedMultiplier: 0.1,
  outputMultiplier: 6,
  minimumCachedTokens: 1024,
  cacheIncrement: 128,
  toolUsePromptTokens: 12,
  longContext: { aboveInputTokens: 272_000, inputFactor: 2, outputFactor: 1.5 },
};

/** A way to price a conversation: a price list, and when the cache expires. */
export interface PriceVariant {
  key: PriceKey;
  /** Short, for a table's header. */
  label: string;
  provider: Provider;
  pricing: CachePricing;
  options: PricingOptions;
}

/** The price variants, by key. */
export type PriceKey =
  | 'anthropic'
  | 'anthropic-1h'
  | 'anthropic-expired'
  | 'anthropic-1h-expired'
  | 'openai'
  | 'openai-expired';

/**
 * Every variant a row is priced under: each list with the user's turns within the cache's
 * lifetime, and with a pause longer than it before every turn (everything written again).
 */
export const PRICE_VARIANTS: readonly PriceVariant[] = [
  {
    key: 'anthropic',
    label: '5 min',
    provider: 'anthropic',
    pricing: ANTHROPIC_CACHE,
    options: {},
  },
  {
    key: 'anthropic-1h',
    label: '1 h',
    provider: 'anthropic',
    pricing: ANTHROPIC_1H_CACHE,
    options: {},
  },
  {
    key: 'anthropic-expired',
    label: '5 min, expired each turn',
    provider: 'anthropic',
    pricing: ANTHROPIC_CACHE,
    options: { cacheExpiresEachTurn: true },
  },
  {
    key: 'anthropic-1h-expired',
    label: '1 h, expired each turn',
    provider: 'anthropic',
    pricing: ANTHROPIC_1H_CACHE,
    options: { cacheExpiresEachTurn: true },
  },
  { key: 'openai', label: 'in-memory', provider: 'openai', pricing: OPENAI_CACHE, options: {} },
  {
    key: 'openai-expired',
    label: 'expired each turn',
    provider: 'openai',
    pricing: OPENAI_CACHE,
    options: { cacheExpiresEachTurn: true },
  },
];
