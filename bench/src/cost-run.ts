/**
 * Plays one row's conversation and turns its recorded requests into the figures `bench:cost`
 * prints: tokens, requests, prefix breaks and the priced total under every price variant.
 */
import { performance } from 'node:perf_hooks';
import { PRICE_VARIANTS, type PriceKey, type PriceVariant } from './cost-price-lists';
import { type PricedStep, prefixChange, priceConversation } from './cost-pricing';
import { ConversationRecorder } from './cost-recorder';
import type { BlockTokenizer } from './cost-request';
import type { CostRow, PreparedRow } from './cost-row';
import type { ConversationTally, ScriptedConversation } from './cost-script';

/** A conversation's cache figures under one price variant: tokens, and the price. */
export interface Totals {
  cached: number;
  written: number;
  /** In base input tokens. */
  priced: number;
}

/** What one row did in one scenario. */
export interface RowResult {
  row: CostRow;
  /** Why the row has no figures. */
  skipped?: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  prices: Record<PriceKey, Totals>;
  toolsChanged: number;
  earlierChanged: number;
  tally: ConversationTally;
  /** Model requests per tool use, from the first step that needed the tool to its call. */
  requestsPerToolUse: number | undefined;
  /** Tokens of the tool definitions of the first request (every tool: the catalog's weight). */
  firstToolTokens: number;
  seconds: number;
}

/** A conversation's totals under one price variant. */
export function totals(steps: readonly PricedStep[], variant: PriceVariant): Totals {
  const sum: Totals = { cached: 0, written: 0, priced: 0 };
  for (const cost of priceConversation(steps, variant.pricing, variant.options)) {
    sum.cached += cost.cachedTokens;
    sum.written += cost.writtenTokens;
    sum.priced += cost.priced;
  }
  return sum;
}

function emptyPrices(): Record<PriceKey, Totals> {
  const prices = {} as Record<PriceKey, Totals>;
  for (const variant of PRICE_VARIANTS) prices[variant.key] = { cached: 0, written: 0, priced: 0 };
  return prices;
}

/** Plays a row's conversation through its framework and prices what it sent. */
export async function runRow(options: {
  row: CostRow;
  prepared: PreparedRow;
  conversation: ScriptedConversation;
  tokenizer: BlockTokenizer;
  notApplicable: string;
}): Promise<RowResult> {
  const { row, prepared, conversation } = options;
  const recorder = new ConversationRecorder(options.tokenizer, conversation);
  const began = performance.now();
  await prepared.play(conversation, recorder);
  const seconds = (performance.now() - began) / 1000;
  const { steps } = recorder;
  let toolsChanged = 0;
  let earlierChanged = 0;
  for (let index = 1; index < steps.length; index++) {
    const change = prefixChange(steps[index - 1]!.request, steps[index]!.request);
    if (change === 'tools') toolsChanged++;
    if (change === 'earlier') earlierChanged++;
  }
  const prices = emptyPrices();
  for (const variant of PRICE_VARIANTS) prices[variant.key] = totals(steps, variant);
  let inputTokens = 0;
  let outputTokens = 0;
  for (const step of steps) {
    for (const block of step.request.blocks) inputTokens += block.tokens.length;
    outputTokens += step.outputTokens;
  }
  const first = steps[0]?.request;
  let firstToolTokens = 0;
  for (const block of first?.blocks.slice(0, first.toolBlocks) ?? []) {
    firstToolTokens += block.tokens.length;
  }
  return {
    row,
    ...(conversation.unsupported && { skipped: options.notApplicable }),
    requests: steps.length,
    inputTokens,
    outputTokens,
    prices,
    toolsChanged,
    earlierChanged,
    tally: conversation.tally,
    requestsPerToolUse: conversation.requestsPerToolUse,
    firstToolTokens,
    seconds,
  };
}

/** A row whose conversation threw: shown as such, so the other rows still print. */
export function failedRow(
  row: CostRow,
  conversation: ScriptedConversation,
  error: unknown,
): RowResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    row,
    skipped: `error: ${message.split('\n')[0]!.slice(0, 120)}`,
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    prices: emptyPrices(),
    toolsChanged: 0,
    earlierChanged: 0,
    tally: conversation.tally,
    requestsPerToolUse: undefined,
    firstToolTokens: 0,
    seconds: 0,
  };
}
