/** The markdown tables `bench:cost` prints. */
import type { CachePricing } from './cost-pricing';
import type { CostRow, Provider } from './cost-row';
import type { ConversationTally } from './cost-script';
import { count, markdownTable } from './format';

/** What one row did in one scenario. */
export interface RowResult {
  row: CostRow;
  /** Why the row has no figures. */
  skipped?: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  anthropic: Totals;
  openai: Totals;
  toolsChanged: number;
  earlierChanged: number;
  tally: ConversationTally;
  seconds: number;
}

/** A conversation's cache figures under one provider: tokens, and the price in base input tokens. */
export interface Totals {
  cached: number;
  written: number;
  priced: number;
}

/** `value` as a multiple of `base` ("0.42×"), empty without a base. */
function ratio(value: number, base: number | undefined): string {
  if (base === undefined || !(base > 0)) return '';
  return `${(value / base).toFixed(2)}×`;
}

/** Printed where a provider's price list does not apply to a row (it speaks the other's API). */
const OTHER_PROVIDER = 'n/a';

/** Whether a provider's price list applies to a row. */
function priced(row: CostRow, provider: Provider): boolean {
  return row.provider === undefined || row.provider === provider;
}

/** One scenario's table: a line per row. */
export function scenarioTable(results: readonly RowResult[]): string {
  const base = results.find((result) => result.row.exposure === 'every-tool' && !result.skipped);
  const rows = results.map((result) => {
    if (result.skipped !== undefined)
      return [result.row.label, result.skipped, ...Array(9).fill('')];
    const anthropic = priced(result.row, 'anthropic')
      ? [
          `${count(result.anthropic.cached)} / ${count(result.anthropic.written)}`,
          count(Math.round(result.anthropic.priced)),
          ratio(result.anthropic.priced, base?.anthropic.priced),
        ]
      : [OTHER_PROVIDER, OTHER_PROVIDER, ''];
    const openai = priced(result.row, 'openai')
      ? [
          count(result.openai.cached),
          count(Math.round(result.openai.priced)),
          ratio(result.openai.priced, base?.openai.priced),
        ]
      : [OTHER_PROVIDER, OTHER_PROVIDER, ''];
    return [
      result.row.label,
      count(result.requests),
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
      'input tokens',
      'output tokens',
      'Anthropic read / written',
      'Anthropic priced',
      'vs every tool',
      'OpenAI cached',
      'OpenAI priced',
      'vs every tool',
      'prefix breaks: tools / earlier',
    ],
    rows,
  );
}

/** Rows whose searches found nothing, that missed loads, or made calls the schema would refuse. */
export function tallyNote(results: readonly RowResult[]): string {
  const notes: string[] = [];
  for (const result of results) {
    if (result.skipped !== undefined) continue;
    const { tally } = result;
    const parts: string[] = [];
    if (tally.emptySearches > 0)
      parts.push(`${tally.emptySearches} of ${tally.searches} searches found nothing`);
    if (tally.searchMisses > 0)
      parts.push(
        `${tally.searchMisses} of ${tally.loads + tally.missedLoads} loads named a tool its search had not shown`,
      );
    if (tally.missedLoads > 0) parts.push(`${tally.loads} loads (${tally.missedLoads} missed)`);
    if (tally.validCalls < tally.calls)
      parts.push(
        `${tally.calls - tally.validCalls} of ${tally.calls} calls with arguments the script could not make valid`,
      );
    if (parts.length > 0) notes.push(`${result.row.label}: ${parts.join('; ')}`);
  }
  return notes.length === 0 ? '' : `\n${notes.map((note) => `- ${note}`).join('\n')}\n`;
}

/**
 * Each row's priced total against every tool, one column per scenario; a row that speaks the other
 * provider's API is left out.
 */
export function summaryTable(
  labels: readonly string[],
  byScenario: readonly { label: string; results: readonly RowResult[] }[],
  pricing: Provider,
): string {
  const applies = (label: string) =>
    byScenario.some(({ results }) =>
      results.some((result) => result.row.label === label && priced(result.row, pricing)),
    );
  const rows = labels.filter(applies).map((label) => [
    label,
    ...byScenario.map(({ results }) => {
      const base = results.find((result) => result.row.exposure === 'every-tool');
      const result = results.find((candidate) => candidate.row.label === label);
      if (result === undefined) return '';
      if (result.skipped !== undefined || !priced(result.row, pricing)) return 'n/a';
      return ratio(result[pricing].priced, base?.[pricing].priced);
    }),
  ]);
  return markdownTable(['row', ...byScenario.map(({ label }) => label)], rows);
}

/** A provider's pricing in one sentence, for the report's header. */
export function describePricing(pricing: CachePricing): string {
  return pricing.kind === 'anthropic'
    ? `${pricing.label}: cache write ${pricing.writeMultiplier}×, read ${pricing.readMultiplier}×, output ${pricing.outputMultiplier}×, minimum ${count(pricing.minimumCacheableTokens)} tokens, breakpoints at the end of the tools, of the system prompt and of the request.`
    : `${pricing.label}: cached input ${pricing.cachedMultiplier}×, output ${pricing.outputMultiplier}×, from ${count(pricing.minimumCachedTokens)} tokens in ${pricing.cacheIncrement}-token steps, no write premium.`;
}
