/**
 * The break-even of `bench:cost`: the catalog weight (tokens of every tool definition, as the
 * every-tool row sends them) below which sending every tool costs less than proxy tool search.
 * Each scenario is played on subsets of the catalog of several sizes by the every-tool row and a
 * proxy row; sending every tool grows with the weight, tool search hardly does, and the crossing
 * is interpolated linearly between the two measured weights around it.
 */
import { PRICE_VARIANTS, type PriceKey } from './cost-price-lists';
import { count, markdownTable } from './format';

/** One measured catalog size: its weight, and both rows' priced totals. */
export interface BreakEvenPoint {
  tools: number;
  /** Tokens of every tool definition. */
  weight: number;
  everyTool: Record<PriceKey, number>;
  proxy: Record<PriceKey, number>;
}

/** Where the two rows' prices cross, in catalog weight. */
export type BreakEven =
  /** Interpolated between two measured weights. */
  | { kind: 'at'; weight: number }
  /** Tool search was cheaper at every measured weight: the break-even is below the smallest. */
  | { kind: 'below'; weight: number }
  /** Every tool was cheaper at every measured weight: the break-even is above the largest. */
  | { kind: 'above'; weight: number };

/**
 * The weight at which every tool starts to cost more than tool search under one price variant:
 * the first measured weight where it does, interpolated back to where the difference crosses 0.
 * @param points - measured sizes, in any order; none gives `undefined`
 * @param key - the price variant
 */
export function breakEven(points: readonly BreakEvenPoint[], key: PriceKey): BreakEven | undefined {
  const sorted = [...points].sort((left, right) => left.weight - right.weight);
  if (sorted.length === 0) return undefined;
  const difference = (point: BreakEvenPoint) => point.everyTool[key] - point.proxy[key];
  const first = sorted[0]!;
  if (difference(first) > 0) return { kind: 'below', weight: first.weight };
  for (let index = 1; index < sorted.length; index++) {
    const before = sorted[index - 1]!;
    const after = sorted[index]!;
    const low = difference(before);
    const high = difference(after);
    if (low <= 0 && high > 0) {
      const share = -low / (high - low);
      return { kind: 'at', weight: before.weight + share * (after.weight - before.weight) };
    }
  }
  return { kind: 'above', weight: sorted.at(-1)!.weight };
}

/** A break-even as a table cell. */
export function describeBreakEven(found: BreakEven | undefined): string {
  if (found === undefined) return 'n/a';
  const weight = count(Math.round(found.weight));
  switch (found.kind) {
    case 'at':
      return weight;
    case 'below':
      return `< ${weight}`;
    case 'above':
      return `> ${weight}`;
  }
}

/** The break-even per scenario (rows) and price variant (columns). */
export function breakEvenTable(
  scenarios: readonly { label: string; points: readonly BreakEvenPoint[] }[],
): string {
  const rows = scenarios.map(({ label, points }) => [
    label,
    [...points]
      .sort((left, right) => left.weight - right.weight)
      .map((point) => `${point.tools}: ${count(point.weight)}`)
      .join(', '),
    ...PRICE_VARIANTS.map((variant) => describeBreakEven(breakEven(points, variant.key))),
  ]);
  return markdownTable(
    [
      'scenario',
      'tools measured: catalog weight (tokens)',
      ...PRICE_VARIANTS.map((variant) => `${variant.provider} ${variant.label}`),
    ],
    rows,
  );
}
