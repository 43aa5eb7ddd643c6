/**
 * Retrieval metrics over one query's ranked ids, plus the small statistics the benchmarks print.
 * Every metric takes the ranking best first and the set of relevant ids, with binary relevance.
 */

/**
 * Share of the relevant ids that appear in the first `k` results.
 *
 * @param ranked - result ids, best first
 * @param relevant - the ids a correct answer contains (duplicates count once)
 * @param k - how many results to look at
 * @returns a number in [0, 1]; 0 when `relevant` is empty
 */
export function recallAt(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const id of new Set(ranked.slice(0, k))) if (wanted.has(id)) found++;
  return found / wanted.size;
}

/**
 * Reciprocal rank of the first relevant id within the first `k` results (one query's MRR@k).
 *
 * @returns 1 / rank (rank counted from 1), or 0 when no relevant id is in the first `k`
 */
export function reciprocalRankAt(
  ranked: readonly string[],
  relevant: Iterable<string>,
  k: number,
): number {
  const wanted = new Set(relevant);
  const limit = Math.min(k, ranked.length);
  for (let i = 0; i < limit; i++) if (wanted.has(ranked[i]!)) return 1 / (i + 1);
  return 0;
}

/**
 * Normalized discounted cumulative gain at `k` with binary gains: DCG = sum over the first `k`
 * positions i (from 1) holding a relevant id of 1 / log2(i + 1), divided by the DCG of an ideal
 * ranking that puts min(|relevant|, k) relevant ids first. An id repeated in `ranked` gains once.
 *
 * @returns a number in [0, 1]; 0 when `relevant` is empty
 */
export function ndcgAt(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 0;
  const seen = new Set<string>();
  let dcg = 0;
  const limit = Math.min(k, ranked.length);
  for (let i = 0; i < limit; i++) {
    const id = ranked[i]!;
    if (wanted.has(id) && !seen.has(id)) dcg += 1 / Math.log2(i + 2);
    seen.add(id);
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

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

/** One query's labels and one ranker's answer to it. */
export interface JudgedRanking {
  ranked: readonly string[];
  relevant: readonly string[];
}

/** The quality figures of one ranker over a set of queries, each averaged over the queries. */
export interface QualitySummary {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrrAt10: number;
  ndcgAt10: number;
}

/** Averages recall@1/5/10, MRR@10 and nDCG@10 over the given queries. */
export function summarizeQuality(rankings: readonly JudgedRanking[]): QualitySummary {
  const over = (metric: (r: JudgedRanking) => number): number => mean(rankings.map(metric));
  return {
    queries: rankings.length,
    recallAt1: over((r) => recallAt(r.ranked, r.relevant, 1)),
    recallAt5: over((r) => recallAt(r.ranked, r.relevant, 5)),
    recallAt10: over((r) => recallAt(r.ranked, r.relevant, 10)),
    mrrAt10: over((r) => reciprocalRankAt(r.ranked, r.relevant, 10)),
    ndcgAt10: over((r) => ndcgAt(r.ranked, r.relevant, 10)),
  };
}
