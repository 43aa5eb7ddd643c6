/**
 * The break-even sweep of `bench:cost` (`cost-break-even.ts`): each scenario played by the
 * every-tool row and a proxy row on subsets of the catalog of several sizes, with the same content
 * as the full run's.
 */
import type { BreakEvenPoint } from './cost-break-even';
import type { ConversationContent } from './cost-content';
import { closeRows, type PreparedRows, playScenario, prepareRows } from './cost-play';
import { PRICE_VARIANTS, type PriceKey } from './cost-price-lists';
import type { BlockTokenizer } from './cost-request';
import type { CostRow } from './cost-row';
import type { RowResult } from './cost-run';
import { type Scenario, subset } from './cost-scenarios';
import type { DataSet } from './data';

/** Options of {@link sweepBreakEven}. */
export interface SweepOptions {
  data: DataSet;
  scenarios: readonly Scenario[];
  /** Catalog sizes, in tools. */
  sizes: readonly number[];
  everyTool: CostRow;
  proxy: CostRow;
  contentOf: (scenario: Scenario) => ConversationContent;
  tokenizer: BlockTokenizer;
}

function pricesOf(result: RowResult): Record<PriceKey, number> {
  const prices = {} as Record<PriceKey, number>;
  for (const variant of PRICE_VARIANTS) prices[variant.key] = result.prices[variant.key].priced;
  return prices;
}

/** Each scenario's measured points; a size the scenario cannot be played on is left out. */
export async function sweepBreakEven(
  options: SweepOptions,
): Promise<{ label: string; points: BreakEvenPoint[] }[]> {
  const rows = [options.everyTool, options.proxy];
  const catalogs = new Map<number, { data: DataSet; prepared: PreparedRows }>();
  const out: { label: string; points: BreakEvenPoint[] }[] = [];
  try {
    for (const scenario of options.scenarios) {
      const points: BreakEvenPoint[] = [];
      for (const size of options.sizes) {
        let catalog = catalogs.get(size);
        if (catalog === undefined) {
          let data: DataSet;
          try {
            data = subset(options.data, size);
          } catch {
            continue;
          }
          catalog = { data, prepared: await prepareRows(rows, data) };
          catalogs.set(size, catalog);
        }
        const results = await playScenario({
          rows,
          prepared: catalog.prepared,
          data: catalog.data,
          scenario,
          content: options.contentOf(scenario),
          tokenizer: options.tokenizer,
          onRow: (result) =>
            console.error(
              `[cost] break-even ${catalog.data.name}, ${scenario.label}: ${result.row.key} ${result.seconds.toFixed(1)} s`,
            ),
        });
        if (typeof results === 'string') continue;
        const [every, proxy] = results as [RowResult, RowResult];
        if (every.skipped !== undefined || proxy.skipped !== undefined) continue;
        points.push({
          tools: catalog.data.tools.length,
          weight: every.firstToolTokens,
          everyTool: pricesOf(every),
          proxy: pricesOf(proxy),
        });
      }
      out.push({ label: scenario.label, points });
    }
  } finally {
    for (const { prepared } of catalogs.values()) await closeRows(prepared);
  }
  return out;
}
