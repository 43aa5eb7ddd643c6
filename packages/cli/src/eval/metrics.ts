/**
 * Retrieval metrics for one query: each takes the ranked ids (best first) and the ids a correct
 * answer contains, with binary relevance. An id listed twice in either counts once.
 */

/**
 * Share of the relevant ids found among the first `k` results (recall@k).
 * @param ranked - result ids, best first
 * @param relevant - the ids a correct answer contains
 * @param k - how many results count
 * @returns a number in [0, 1]; 0 when nothing is relevant
 * @example recallAt(['a', 'b', 'c'], ['b', 'z'], 2) // 0.5
 */
export function recallAt(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 0;
  let found = 0;
  for (const id of new Set(ranked.slice(0, k))) if (wanted.has(id)) found++;
  return found / wanted.size;
}

/**
 * One over the rank (from 1) of the first relevant id among the first `k` results; averaged over
 * queries it is MRR@k.
 * @param ranked - result ids, best first
 * @param relevant - the ids a correct answer contains
 * @param k - how many results count
 * @returns 1 / rank, or 0 when no relevant id is among the first `k`
 * @example reciprocalRankAt(['a', 'b'], ['b'], 10) // 0.5
 */
export function reciprocalRankAt(
  ranked: readonly string[],
  relevant: Iterable<string>,
  k: number,
): number {
  const wanted = new Set(relevant);
  const limit = Math.min(k, ranked.length);
  for (let position = 0; position < limit; position++) {
    if (wanted.has(ranked[position]!)) return 1 / (position + 1);
  }
  return 0;
}

/**
 * Normalized discounted cumulative gain at `k`, binary gains (Järvelin & Kekäläinen, "Cumulated
 * gain-based evaluation of IR techniques", ACM TOIS 2002, with the log2(rank + 1) discount): the
 * sum of 1 / log2(rank + 1) over the relevant ids among the first `k` results, divided by the same
 * sum for an ideal ranking that puts min(|relevant|, k) relevant ids first.
 * @param ranked - result ids, best first
 * @param relevant - the ids a correct answer contains
 * @param k - how many results count
 * @returns a number in [0, 1]; 0 when nothing is relevant
 * @example ndcgAt(['a', 'b'], ['b'], 10) // 1 / log2(3) ≈ 0.631
 */
export function ndcgAt(ranked: readonly string[], relevant: Iterable<string>, k: number): number {
  const wanted = new Set(relevant);
  if (wanted.size === 0) return 0;
  const counted = new Set<string>();
  let gain = 0;
  const limit = Math.min(k, ranked.length);
  for (let position = 0; position < limit; position++) {
    const id = ranked[position]!;
    if (wanted.has(id) && !counted.has(id)) gain += 1 / Math.log2(position + 2);
    counted.add(id);
  }
  let ideal = 0;
  for (let position = 0; position < Math.min(wanted.size, k); position++) {
    ideal += 1 / Math.log2(position + 2);
  }
  return gain / ideal;
}
