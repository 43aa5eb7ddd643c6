import { TopK } from '../search/top-k';
import { EXACT_BATCH, type VectorMatrix } from './vector-matrix';

/** A tool and its cosine similarity to the query. */
export interface SimilarityHit {
  id: string;
  score: number;
}

/** What {@link SimilarityScan.rank} keeps. */
export interface SimilarityRankOptions {
  /** How many tools to return at most. */
  depth: number;
  /** Tools less similar than this are left out. */
  minSimilarity: number;
  /** Per matrix (in the scan's order), a filter on ids: shadowed tools are left out. */
  filters?: readonly (((id: string) => boolean) | undefined)[];
}

/**
 * Each round of re-ranking takes the rows whose upper bound reaches the `wanted`-th best lower
 * bound; a round that cannot prove the ranking complete (filters or `minSimilarity` removed too
 * many) looks this many times deeper.
 */
const DEEPER = 4;
/**
 * Bounds are refined with a 16-bit query from this dimension up: below it, re-ranking the few
 * more candidates the scan's 8-bit query leaves costs less than the refinement's extra passes.
 */
const REFINE_MIN_DIMENSION = 256;

/**
 * @internal One search's similarities: the first pass over every tool is run once, at
 * construction, and {@link SimilarityScan.rank} (called for each window the search needs) re-ranks
 * only the candidates the first pass's error bounds cannot rule out. Rankings are exactly those of
 * computing every tool's dot product: best first, ties by id.
 */
export class SimilarityScan {
  readonly #query: Float32Array;
  readonly #matrices: (VectorMatrix | undefined)[];
  /** Per matrix, the number of the scan that wrote its bounds for this query. */
  readonly #scans: number[];

  /**
   * @param query - the query's unit vector
   * @param matrices - the searched indexes' vectors, in the order of the filters given to `rank`
   */
  constructor(query: Float32Array, matrices: readonly (VectorMatrix | undefined)[]) {
    this.#query = query;
    this.#matrices = matrices.map((matrix) =>
      matrix && matrix.present > 0 && matrix.dimension === query.length ? matrix : undefined,
    );
    this.#scans = this.#matrices.map((matrix) => matrix?.scan(query) ?? 0);
  }

  /** The `depth` tools most similar to the query, best first (ties by id). */
  rank(options: SimilarityRankOptions): SimilarityHit[] {
    const depth = Math.floor(options.depth);
    if (!(depth > 0)) return [];
    // Another search may have scanned a matrix since (searches interleave at every await).
    for (const [position, matrix] of this.#matrices.entries()) {
      if (matrix && matrix.scans !== this.#scans[position]) {
        this.#scans[position] = matrix.scan(this.#query);
      }
    }
    const top = new TopK<SimilarityHit>(depth);
    let ceiling = Number.POSITIVE_INFINITY;
    for (let wanted = depth; ; wanted *= DEEPER) {
      const { floor, candidates } = this.#candidates(wanted, ceiling, options.minSimilarity);
      this.#rerank(top, candidates, options);
      // Every row not looked at has an upper bound below `floor`: it can neither reach
      // minSimilarity nor beat the k-th kept score.
      if (floor === Number.NEGATIVE_INFINITY) break;
      if (floor <= options.minSimilarity || floor <= top.threshold()) break;
      ceiling = floor;
    }
    return top.sorted();
  }

  /**
   * The rows whose upper bound reaches `floor` and `minSimilarity`, and lies below `ceiling`, where
   * at least `wanted` rows have a lower bound (so an exact score) at or above `floor` (−∞ when
   * there are fewer rows). Any such `floor` is correct; a higher one leaves fewer candidates.
   */
  #candidates(
    wanted: number,
    ceiling: number,
    minSimilarity: number,
  ): { floor: number; candidates: Candidates } {
    const coarse = this.#lowerBoundOfRank(wanted);
    if (this.#query.length >= REFINE_MIN_DIMENSION) {
      // The scan's bounds pick the rows worth refining: every row whose upper bound reaches
      // `coarse`, so the `wanted` rows with the best lower bounds among them. Their refined bounds
      // then give a floor at least as high, and no other row can reach it.
      const owners: number[] = [];
      const rows: number[] = [];
      const uppers: number[] = [];
      const lowers: number[] = [];
      for (const [position, matrix] of this.#matrices.entries()) {
        if (!matrix) continue;
        const refined = matrix.refine(Math.max(coarse, minSimilarity), ceiling);
        for (let i = 0; i < refined.length; i++) {
          const row = refined[i]!;
          owners.push(position);
          rows.push(row);
          uppers.push(matrix.upper[row]!);
          lowers.push(matrix.lower[row]!);
        }
      }
      if (lowers.length >= wanted) {
        const floor = Math.max(coarse, largest(lowers, wanted));
        const minimum = Math.max(floor, minSimilarity);
        const kept = uppers.map((upper) => upper >= minimum);
        return {
          floor,
          candidates: {
            owners: owners.filter((_, i) => kept[i]),
            rows: rows.filter((_, i) => kept[i]),
            uppers: uppers.filter((_, i) => kept[i]),
          },
        };
      }
    }
    const minimum = Math.max(coarse, minSimilarity);
    const owners: number[] = [];
    const rows: number[] = [];
    const uppers: number[] = [];
    for (const [position, matrix] of this.#matrices.entries()) {
      if (!matrix) continue;
      const found = matrix.rowsWithUpperBound(minimum, ceiling);
      const upper = matrix.upper;
      for (let i = 0; i < found.length; i++) {
        owners.push(position);
        rows.push(found[i]!);
        uppers.push(upper[found[i]!]!);
      }
    }
    return { floor: coarse, candidates: { owners, rows, uppers } };
  }

  /** The largest of the matrices' own `wanted`-th lower bounds (−∞ when each has fewer rows). */
  #lowerBoundOfRank(wanted: number): number {
    let floor = Number.NEGATIVE_INFINITY;
    for (const matrix of this.#matrices) {
      if (matrix) floor = Math.max(floor, matrix.lowerBoundOfRank(wanted));
    }
    return floor;
  }

  /**
   * Computes the candidates' exact similarities, best bound first, and keeps those that qualify;
   * stops once no remaining bound reaches the k-th kept score.
   */
  #rerank(top: TopK<SimilarityHit>, candidates: Candidates, options: SimilarityRankOptions): void {
    const { owners, rows, uppers } = candidates;
    const order = uppers.map((_, index) => index).sort((a, b) => uppers[b]! - uppers[a]!);
    const batch: number[] = [];
    const scores = new Float64Array(EXACT_BATCH);
    let next = 0;
    while (next < order.length) {
      const threshold = top.threshold();
      // Bounds come in decreasing order: once one cannot beat the k-th score, none can.
      if (uppers[order[next]!]! < threshold) return;
      const owner = owners[order[next]!]!;
      const matrix = this.#matrices[owner]!;
      const filter = options.filters?.[owner];
      batch.length = 0;
      // A batch: rows of one matrix, in bound order, that could still enter.
      while (next < order.length && batch.length < EXACT_BATCH) {
        const candidate = order[next]!;
        if (owners[candidate] !== owner || uppers[candidate]! < threshold) break;
        next++;
        const row = rows[candidate]!;
        if (filter && !filter(matrix.ids[row]!)) continue;
        batch.push(row);
      }
      if (batch.length === 0) continue;
      matrix.exact(this.#query, batch, scores);
      for (let i = 0; i < batch.length; i++) {
        const score = scores[i]!;
        if (!(score >= options.minSimilarity)) continue;
        const id = matrix.ids[batch[i]!]!;
        if (top.accepts(score, id)) top.push({ id, score });
      }
    }
  }
}

/** Rows to re-rank: per candidate, its matrix (position), row and upper bound. */
interface Candidates {
  owners: number[];
  rows: number[];
  uppers: number[];
}

/** The `rank`-th largest of `values` (1 ≤ rank ≤ values.length). */
function largest(values: readonly number[], rank: number): number {
  // A typed array sorts numbers natively, without a comparator call per comparison.
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length - rank]!;
}
