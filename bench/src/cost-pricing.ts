/**
 * Prices a conversation's requests under a provider's prompt cache: the part of a request that
 * repeats the previous request's prefix is read from the cache, the rest is written to it (or,
 * where the provider charges no write, sent at the base price). All prices are in base input
 * tokens: one uncached input token costs 1.
 *
 * The multipliers and limits are parameters: the named, dated price lists are in
 * `cost-price-lists.ts`, and bench/README.md gives each one's source.
 */
import type { TokenizedBlock, TokenizedRequest } from './cost-request';

/**
 * A long-context premium: a request whose input (cached, written and uncached) exceeds
 * `aboveInputTokens` pays every input token `inputFactor` times and every output token
 * `outputFactor` times its usual price.
 */
export interface LongContextPricing {
  aboveInputTokens: number;
  inputFactor: number;
  outputFactor: number;
}

/** What every price list has. */
interface CommonPricing {
  label: string;
  /** An output token, in base input tokens. */
  outputMultiplier: number;
  /**
   * The provider's own tool-use prompt, added to every request that has tools (its documented
   * token count), before the tools: cached with them.
   */
  toolUsePromptTokens: number;
  longContext?: LongContextPricing;
}

/** Anthropic's prompt cache: explicit breakpoints, a write premium, a read discount. */
export interface AnthropicCachePricing extends CommonPricing {
  kind: 'anthropic';
  /** A cache write, per token, in base input tokens (it depends on the cache's lifetime). */
  writeMultiplier: number;
  /** A cache read (hit or refresh), per token. */
  readMultiplier: number;
  /** A prefix shorter than this is neither written nor read (model-dependent). */
  minimumCacheableTokens: number;
  /** How many blocks before a breakpoint the cache looks back for an earlier entry. */
  lookbackBlocks: number;
}

/** OpenAI's automatic prompt cache: no breakpoints, no write premium. */
export interface OpenAiCachePricing extends CommonPricing {
  kind: 'openai';
  /** A cached input token, in base input tokens. */
  cachedMultiplier: number;
  /** A prompt shorter than this is never cached. */
  minimumCachedTokens: number;
  /** Cached prefixes grow from the minimum in steps of this many tokens. */
  cacheIncrement: number;
}

/** A provider's cache pricing. */
export type CachePricing = AnthropicCachePricing | OpenAiCachePricing;

/** How a conversation's requests are spread in time. */
export interface PricingOptions {
  /**
   * The user pauses longer than the cache lives before every turn but the first: each turn's
   * first request finds nothing cached.
   */
  cacheExpiresEachTurn?: boolean;
}

/** What one request costs. */
export interface RequestCost {
  inputTokens: number;
  /** Read from the cache. */
  cachedTokens: number;
  /** Written to the cache (at the write multiplier; 0 for OpenAI, which charges no write). */
  writtenTokens: number;
  outputTokens: number;
  /** Input and output, in base input tokens. */
  priced: number;
}

/** How a request relates to the one before it. */
export type PrefixChange = 'extends' | 'tools' | 'earlier';

/** One request of a conversation: what it sent, and how many tokens the model answered with. */
export interface PricedStep {
  request: TokenizedRequest;
  outputTokens: number;
  /** The first request after a user message. */
  turnStart?: boolean;
}

/**
 * Whether `current` extends `previous` (every block of the previous request comes first, in
 * order), and if not, what changed first: the tool definitions, or an earlier part of the prompt
 * (the system prompt or a message).
 */
export function prefixChange(previous: TokenizedRequest, current: TokenizedRequest): PrefixChange {
  if (commonBlocks(previous, current) === previous.blocks.length) return 'extends';
  const toolsSame =
    previous.toolBlocks === current.toolBlocks &&
    commonBlocks(previous, current) >= previous.toolBlocks;
  return toolsSame ? 'earlier' : 'tools';
}

/**
 * Prices every request of a conversation, each against the one before it (or against nothing,
 * where the cache expired), with the provider's tool-use prompt and long-context premium.
 */
export function priceConversation(
  steps: readonly PricedStep[],
  pricing: CachePricing,
  options: PricingOptions = {},
): RequestCost[] {
  const costs: RequestCost[] = [];
  let previous: CacheState | undefined;
  for (const step of steps) {
    if (options.cacheExpiresEachTurn && step.turnStart) previous = undefined;
    const sent = { ...step, request: withToolUsePrompt(step.request, pricing.toolUsePromptTokens) };
    const priced =
      pricing.kind === 'anthropic'
        ? priceAnthropic(previous, sent, pricing)
        : priceOpenAi(previous, sent, pricing);
    costs.push(withLongContext(priced.cost, pricing.longContext, pricing.outputMultiplier));
    previous = priced.state;
  }
  return costs;
}

/** The provider's tool-use prompt as a block, by token count: the same block on every request. */
const toolUsePrompts = new Map<number, TokenizedBlock>();

/**
 * The request as the provider renders it: its tool-use prompt before the tools when it has tools.
 * The prompt's block has a key and tokens no tokenized text has (both negative).
 */
export function withToolUsePrompt(request: TokenizedRequest, tokens: number): TokenizedRequest {
  if (tokens <= 0 || request.toolBlocks === 0) return request;
  let block = toolUsePrompts.get(tokens);
  if (block === undefined) {
    block = { key: -1 - tokens, tokens: Array.from({ length: tokens }, (_, index) => -1 - index) };
    toolUsePrompts.set(tokens, block);
  }
  return {
    blocks: [block, ...request.blocks],
    toolBlocks: request.toolBlocks + 1,
    systemBlocks: request.systemBlocks,
  };
}

/** A request's cost with the long-context premium, when its input is above the threshold. */
function withLongContext(
  cost: RequestCost,
  premium: LongContextPricing | undefined,
  outputMultiplier: number,
): RequestCost {
  if (premium === undefined || cost.inputTokens <= premium.aboveInputTokens) return cost;
  const output = cost.outputTokens * outputMultiplier;
  const input = cost.priced - output;
  return {
    ...cost,
    priced: input * premium.inputFactor + output * premium.outputFactor,
  };
}

/** What a priced request leaves in the cache for the next one. */
interface CacheState {
  request: TokenizedRequest;
  /** Anthropic: block counts whose prefix has a cache entry. */
  entries: readonly number[];
}

/**
 * Anthropic: the client marks three breakpoints (of the four allowed): the end of the tools, the
 * end of the system prompt, and the end of the request (the moving breakpoint of automatic
 * caching). A breakpoint's prefix of at least the minimum length is written to the cache, unless
 * read. A request reads the longest entry the previous request wrote or read that is still its own
 * prefix and lies within the look-back window of one of its breakpoints; everything after it up to
 * the last cacheable breakpoint is written; a request shorter than the minimum is sent uncached.
 */
function priceAnthropic(
  previous: CacheState | undefined,
  step: PricedStep,
  pricing: AnthropicCachePricing,
): { cost: RequestCost; state: CacheState } {
  const { request } = step;
  const positions = tokenPositions(request);
  const breakpoints = [
    ...new Set([
      request.toolBlocks,
      request.toolBlocks + request.systemBlocks,
      request.blocks.length,
    ]),
  ].filter((blocks) => blocks > 0);
  const cacheable = breakpoints.filter(
    (blocks) => positions[blocks]! >= pricing.minimumCacheableTokens,
  );
  let readBlocks = 0;
  if (previous !== undefined) {
    const shared = commonBlocks(previous.request, request);
    for (const entry of previous.entries) {
      const reachable = breakpoints.some(
        (breakpoint) => breakpoint >= entry && breakpoint - entry <= pricing.lookbackBlocks,
      );
      if (entry <= shared && reachable && entry > readBlocks) readBlocks = entry;
    }
  }
  const inputTokens = positions[request.blocks.length]!;
  const cachedTokens = positions[readBlocks]!;
  const lastCacheable = cacheable.length === 0 ? 0 : Math.max(...cacheable);
  const writtenTokens = Math.max(0, positions[lastCacheable]! - cachedTokens);
  const uncached = inputTokens - cachedTokens - writtenTokens;
  const cost: RequestCost = {
    inputTokens,
    cachedTokens,
    writtenTokens,
    outputTokens: step.outputTokens,
    priced:
      cachedTokens * pricing.readMultiplier +
      writtenTokens * pricing.writeMultiplier +
      uncached +
      step.outputTokens * pricing.outputMultiplier,
  };
  const entries = [...new Set([...cacheable, ...(readBlocks > 0 ? [readBlocks] : [])])];
  return { cost, state: { request, entries } };
}

/**
 * OpenAI: the longest prefix (in tokens) shared with the previous request is cached, counted from
 * the minimum in whole increments; the rest is sent at the base price.
 */
function priceOpenAi(
  previous: CacheState | undefined,
  step: PricedStep,
  pricing: OpenAiCachePricing,
): { cost: RequestCost; state: CacheState } {
  const { request } = step;
  const inputTokens = tokenPositions(request)[request.blocks.length]!;
  const shared = previous === undefined ? 0 : commonTokens(previous.request, request);
  const cachedTokens =
    shared < pricing.minimumCachedTokens
      ? 0
      : pricing.minimumCachedTokens +
        Math.floor((shared - pricing.minimumCachedTokens) / pricing.cacheIncrement) *
          pricing.cacheIncrement;
  const cost: RequestCost = {
    inputTokens,
    cachedTokens,
    writtenTokens: 0,
    outputTokens: step.outputTokens,
    priced:
      cachedTokens * pricing.cachedMultiplier +
      (inputTokens - cachedTokens) +
      step.outputTokens * pricing.outputMultiplier,
  };
  return { cost, state: { request, entries: [] } };
}

/** `positions[i]`: tokens in the first `i` blocks. */
function tokenPositions(request: TokenizedRequest): number[] {
  const positions = [0];
  for (const block of request.blocks) positions.push(positions.at(-1)! + block.tokens.length);
  return positions;
}

/** How many leading blocks two requests share. */
function commonBlocks(left: TokenizedRequest, right: TokenizedRequest): number {
  const length = Math.min(left.blocks.length, right.blocks.length);
  let index = 0;
  while (index < length && left.blocks[index]!.key === right.blocks[index]!.key) index++;
  return index;
}

/** How many leading tokens two requests share: whole blocks, then the first differing block's common start. */
function commonTokens(left: TokenizedRequest, right: TokenizedRequest): number {
  const blocks = commonBlocks(left, right);
  let tokens = 0;
  for (let index = 0; index < blocks; index++) tokens += left.blocks[index]!.tokens.length;
  const a = left.blocks[blocks]?.tokens;
  const b = right.blocks[blocks]?.tokens;
  if (a !== undefined && b !== undefined) {
    const length = Math.min(a.length, b.length);
    let index = 0;
    while (index < length && a[index] === b[index]) index++;
    tokens += index;
  }
  return tokens;
}
