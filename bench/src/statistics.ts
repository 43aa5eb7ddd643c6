/** The small statistics the benchmarks print: mean, median and percentiles of timings. */

/** Arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * The `p`-th percentile (0–100) with linear interpolation between the closest ranks, as
 * numpy's default does; `percentile(values, 50)` is the median. NaN for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (Math.min(Math.max(p, 0), 100) / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const fraction = position - lower;
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * fraction;
}

/** The median (50th percentile); NaN for no values. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
