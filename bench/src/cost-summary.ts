/**
 * The tables `bench:cost` prints across a data file's scenarios: each row's priced total against
 * every tool, and issue 31's criteria read off the rows they name.
 */
import { PRICE_VARIANTS, type PriceKey } from './cost-price-lists';
import { baseline, perToolUse, priced, ratio } from './cost-report';
import type { RowResult } from './cost-run';
import { markdownTable } from './format';

/** One scenario's results, under its label. */
export interface ScenarioResults {
  label: string;
  /** Loads the scenario plans: the criteria on tool uses apply only with loads. */
  loads: number;
  results: readonly RowResult[];
}

/**
 * Each row's priced total against every tool under one price variant, one column per scenario; a
 * row that speaks the other provider's API is left out.
 */
export function summaryTable(
  labels: readonly string[],
  byScenario: readonly ScenarioResults[],
  key: PriceKey,
): string {
  const provider = PRICE_VARIANTS.find((variant) => variant.key === key)!.provider;
  const applies = (label: string) =>
    byScenario.some(({ results }) =>
      results.some((result) => result.row.label === label && priced(result.row, provider)),
    );
  const rows = labels.filter(applies).map((label) => [
    label,
    ...byScenario.map(({ results }) => {
      const base = baseline(results);
      const result = results.find((candidate) => candidate.row.label === label);
      if (result === undefined) return '';
      if (result.skipped !== undefined || !priced(result.row, provider)) return 'n/a';
      return ratio(result.prices[key].priced, base?.prices[key].priced);
    }),
  ]);
  return markdownTable(['row', ...byScenario.map(({ label }) => label)], rows);
}

/** The price variants the "below Mastra" and "at or below every tool" criteria must hold under. */
const CRITERIA_VARIANTS: readonly PriceKey[] = ['anthropic', 'openai'];

/** Issue 31's thresholds. */
const MAX_REQUESTS_PER_TOOL_USE = 2;
const MAX_VS_NATIVE = 1.05;

interface Worst {
  value: number;
  key: string;
}

/** The largest of `value(result)` over the results of `keys`, with the row that has it. */
function worst(
  results: readonly RowResult[],
  keys: readonly string[],
  value: (result: RowResult) => number | undefined,
): Worst | undefined {
  let found: Worst | undefined;
  for (const result of results) {
    if (!keys.includes(result.row.key) || result.skipped !== undefined) continue;
    const figure = value(result);
    if (figure === undefined || !Number.isFinite(figure)) continue;
    if (found === undefined || figure > found.value) found = { value: figure, key: result.row.key };
  }
  return found;
}

function verdict(found: Worst | undefined, meets: (value: number) => boolean, digits = 2): string {
  if (found === undefined) return 'n/a';
  return `${found.value.toFixed(digits)} ${meets(found.value) ? '✓' : '✗'} (${found.key})`;
}

/** A row's priced total over another row's, the largest over the criteria's price variants. */
function worstRatio(result: RowResult, other: RowResult | undefined): number | undefined {
  if (other === undefined || other.skipped !== undefined) return undefined;
  const ratios = CRITERIA_VARIANTS.filter((key) => priced(result.row, providerOf(key))).map(
    (key) => result.prices[key].priced / other.prices[key].priced,
  );
  return ratios.length === 0 ? undefined : Math.max(...ratios);
}

function providerOf(key: PriceKey) {
  return PRICE_VARIANTS.find((variant) => variant.key === key)!.provider;
}

/**
 * Issue 31's "Done when", one line per scenario: under the proxy rows of every adapter, requests
 * per tool use ≤ 2, at most 1.05× Anthropic's native search (Anthropic's price list) and below
 * Mastra's built-in processor (under each price list) wherever the scenario loads tools; the
 * package defaults at or below every tool in every scenario. Each cell is the worst row's figure.
 * @param keys - the proxy rows and the package-default rows (`cost-rows.ts`)
 */
export function criteriaTable(
  byScenario: readonly ScenarioResults[],
  keys: { proxy: readonly string[]; defaults: readonly string[] },
): string {
  const rows = byScenario.map(({ label, loads, results }) => {
    const find = (key: string) => results.find((result) => result.row.key === key);
    const native = find('anthropic-native');
    const mastra = find('mastra-builtin');
    const every = baseline(results);
    const withLoads = loads > 0;
    const perUse = worst(results, keys.proxy, (result) => result.requestsPerToolUse);
    const vsNative = worst(results, keys.proxy, (result) =>
      native && !native.skipped
        ? result.prices.anthropic.priced / native.prices.anthropic.priced
        : undefined,
    );
    const vsMastra = worst(results, keys.proxy, (result) => worstRatio(result, mastra));
    const defaults = worst(results, keys.defaults, (result) => worstRatio(result, every));
    return [
      label,
      withLoads ? verdict(perUse, (value) => value <= MAX_REQUESTS_PER_TOOL_USE, 1) : '—',
      withLoads ? verdict(vsNative, (value) => value <= MAX_VS_NATIVE, 3) : '—',
      withLoads ? verdict(vsMastra, (value) => value < 1) : '—',
      verdict(defaults, (value) => value <= 1),
    ];
  });
  return markdownTable(
    [
      'scenario',
      "requests per tool use, 'proxy' (≤ 2)",
      "'proxy' ÷ Anthropic native (≤ 1.05)",
      "'proxy' ÷ Mastra built-in (< 1)",
      'package defaults ÷ every tool (≤ 1)',
    ],
    rows,
  );
}

/** Every row's requests per tool use, one column per scenario with loads. */
export function perToolUseTable(
  labels: readonly string[],
  byScenario: readonly ScenarioResults[],
): string {
  const withLoads = byScenario.filter((scenario) => scenario.loads > 0);
  const rows = labels.map((label) => [
    label,
    ...withLoads.map(({ results }) => {
      const result = results.find((candidate) => candidate.row.label === label);
      return result === undefined || result.skipped !== undefined ? 'n/a' : perToolUse(result);
    }),
  ]);
  return markdownTable(['row', ...withLoads.map(({ label }) => label)], rows);
}
