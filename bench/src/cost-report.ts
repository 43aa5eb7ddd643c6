/** The per-scenario markdown tables `bench:cost` prints. */
import { PRICE_VARIANTS, type PriceKey } from './cost-price-lists';
import type { CachePricing } from './cost-pricing';
import type { CostRow, Provider } from './cost-row';
import type { RowResult } from './cost-run';
import { count, markdownTable } from './format';

export type { RowResult, Totals } from './cost-run';

/** `value` as a multiple of `base` ("0.42×"), empty without a base. */
export function ratio(value: number, base: number | undefined): string {
  if (base === undefined || !(base > 0)) return '';
  return `${(value / base).toFixed(2)}×`;
}

/** Printed where a provider's price list does not apply to a row (it speaks the other's API). */
const OTHER_PROVIDER = 'n/a';

/** Whether a provider's price list applies to a row. */
export function priced(row: CostRow, provider: Provider): boolean {
  return row.provider === undefined || row.provider === provider;
}

/** The every-tool row of a scenario's results, when it ran. */
export function baseline(results: readonly RowResult[]): RowResult | undefined {
  return results.find((result) => result.row.exposure === 'every-tool' && !result.skipped);
}

/** Requests per tool use, to one decimal; empty without a tool use. */
export function perToolUse(result: RowResult): string {
  return result.requestsPerToolUse === undefined ? '' : result.requestsPerToolUse.toFixed(1);
}

/** The ratios to every tool under a provider's variants, "0.57 / 0.60 / ...". */
function variantRatios(result: RowResult, base: RowResult | undefined, provider: Provider): string {
  return PRICE_VARIANTS.filter((variant) => variant.provider === provider)
    .map((variant) => ratio(result.prices[variant.key].priced, base?.prices[variant.key].priced))
    .map((text) => text.replace('×', ''))
    .join(' / ');
}

function variantLabels(provider: Provider): string {
  return PRICE_VARIANTS.filter((variant) => variant.provider === provider)
    .map((variant) => variant.label)
    .join(' / ');
}

/** One scenario's table: a line per row. */
export function scenarioTable(results: readonly RowResult[]): string {
  const base = baseline(results);
  const rows = results.map((result) => {
    if (result.skipped !== undefined)
      return [result.row.label, result.skipped, ...Array(11).fill('')];
    const main = (key: PriceKey) => result.prices[key];
    const anthropic = priced(result.row, 'anthropic')
      ? [
          `${count(main('anthropic').cached)} / ${count(main('anthropic').written)}`,
          count(Math.round(main('anthropic').priced)),
          variantRatios(result, base, 'anthropic'),
        ]
      : [OTHER_PROVIDER, OTHER_PROVIDER, ''];
    const openai = priced(result.row, 'openai')
      ? [
          count(main('openai').cached),
          count(Math.round(main('openai').priced)),
          variantRatios(result, base, 'openai'),
        ]
      : [OTHER_PROVIDER, OTHER_PROVIDER, ''];
    return [
      result.row.label,
      count(result.requests),
      perToolUse(result),
      count(result.inputTokens),
      count(result.outputTokens),
      ...anthropic,
      ...openai,
      `${result.toolsChanged} / ${result.earlierChanged}`,
    ];
  });
  return markdownTable(
    [
      'row',
      'requests',
      'requests per tool use',
      'input tokens',
      'output tokens',
      'Anthropic read / written',
      'Anthropic priced',
      `vs every tool (${variantLabels('anthropic')})`,
      'OpenAI cached',
      'OpenAI priced',
      `vs every tool (${variantLabels('openai')})`,
      'prefix breaks: tools / earlier',
    ],
    rows,
  );
}

/** Rows whose searches found nothing or missed, that missed loads, or made invalid calls. */
export function tallyNote(results: readonly RowResult[]): string {
  const notes: string[] = [];
  for (const result of results) {
    if (result.skipped !== undefined) continue;
    const { tally } = result;
    const uses = tally.loads + tally.missedLoads;
    const parts: string[] = [];
    if (tally.emptySearches > 0)
      parts.push(`${tally.emptySearches} of ${tally.searches} searches found nothing`);
    if (tally.searchMisses > 0)
      parts.push(
        `${tally.searchMisses} of ${uses} tool uses searched again by name` +
          (tally.namedLoads > 0 ? ` (${tally.namedLoads} then loaded by name)` : ''),
      );
    if (tally.definitionCalls > 0)
      parts.push(`${tally.definitionCalls} tools called from a search answer's definition`);
    if (tally.missedLoads > 0) parts.push(`${tally.missedLoads} of ${uses} tool uses failed`);
    if (tally.validCalls < tally.calls)
      parts.push(
        `${tally.calls - tally.validCalls} of ${tally.calls} calls with arguments the script could not make valid`,
      );
    if (parts.length > 0) notes.push(`${result.row.label}: ${parts.join('; ')}`);
  }
  return notes.length === 0 ? '' : `\n${notes.map((note) => `- ${note}`).join('\n')}\n`;
}

/** A price list in one sentence, for the report's header. */
export function describePricing(pricing: CachePricing): string {
  const premium = pricing.longContext
    ? `; above ${count(pricing.longContext.aboveInputTokens)} input tokens ${pricing.longContext.inputFactor}× input and ${pricing.longContext.outputFactor}× output`
    : '';
  const prompt = `tool-use prompt ${count(pricing.toolUsePromptTokens)} tokens`;
  return pricing.kind === 'anthropic'
    ? `${pricing.label}: cache write ${pricing.writeMultiplier}×, read ${pricing.readMultiplier}×, output ${pricing.outputMultiplier}×, minimum ${count(pricing.minimumCacheableTokens)} tokens, breakpoints at the end of the tools, of the system prompt and of the request; ${prompt}${premium}.`
    : `${pricing.label}: cached input ${pricing.cachedMultiplier}×, output ${pricing.outputMultiplier}×, from ${count(pricing.minimumCachedTokens)} tokens in ${pricing.cacheIncrement}-token steps, no write premium; ${prompt}${premium}.`;
}
