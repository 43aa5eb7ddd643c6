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
  // Parallel arrays rather than an object per id: a search fuses a few hundred ids.
  const positions = new Map<string, number>();
  const ids: string[] = [];
  const scores: number[] = [];
  const bestRanks: number[] = [];
  for (const { ids: ranked, weight } of rankings) {
    for (let rank = 0; rank < ranked.length; rank++) {
      const id = ranked[rank]!;
      const contribution = weight / (k + rank + 1);
      const known = positions.get(id);
      if (known === undefined) {
        positions.set(id, ids.length);
        ids.push(id);
        scores.push(contribution);
        bestRanks.push(rank);
      } else {
        scores[known]! += contribution;
        if (rank < bestRanks[known]!) bestRanks[known] = rank;
      }
    }
  }
  const order = ids.map((_, position) => position);
  order.sort(
    (left, right) =>
      scores[right]! - scores[left]! ||
      bestRanks[left]! - bestRanks[right]! ||
      (ids[left]! < ids[right]! ? -1 : ids[left]! > ids[right]! ? 1 : 0),
  );
  return order.map((position) => ({ id: ids[position]!, score: scores[position]! }));
}
