/** One ranking to fuse: ids best first, and how much it counts. */
export interface WeightedRanking {
  ids: readonly string[];
  weight: number;
}

/** A fused result: the id and its fused score. */
export interface FusedResult {
  id: string;
  /** Σ weight / (k + rank) over the rankings that hold the id (ranks start at 1). */
  score: number;
}

/** The textbook `k` of reciprocal-rank fusion, from the paper cited on {@link fuseRankings}. */
export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal-rank fusion: each ranking gives a result `weight / (k + rank)`, and results are
 * ordered by the sum (G. V. Cormack, C. L. A. Clarke and S. Büttcher, "Reciprocal rank fusion
 * outperforms Condorcet and individual rank learning methods", SIGIR 2009; weights as in its
 * common weighted form). It needs no score calibration, which is why it can fuse BM25F scores
 * with cosine similarities. Ties break by the better single rank, then by id.
 * @param rankings - the rankings, each without duplicate ids
 * @param k - the constant added to every rank
 * @returns every id of any ranking, best first
 */
export function fuseRankings(
  rankings: readonly WeightedRanking[],
  k = DEFAULT_RRF_K,
): FusedResult[] {
  const fused = new Map<string, { score: number; bestRank: number }>();
  for (const { ids, weight } of rankings) {
    for (let position = 0; position < ids.length; position++) {
      const id = ids[position]!;
      const contribution = weight / (k + position + 1);
      const known = fused.get(id);
      if (known) {
        known.score += contribution;
        known.bestRank = Math.min(known.bestRank, position);
      } else {
        fused.set(id, { score: contribution, bestRank: position });
      }
    }
  }
  return [...fused]
    .sort(
      ([leftId, left], [rightId, right]) =>
        right.score - left.score ||
        left.bestRank - right.bestRank ||
        (leftId < rightId ? -1 : leftId > rightId ? 1 : 0),
    )
    .map(([id, { score }]) => ({ id, score }));
}
