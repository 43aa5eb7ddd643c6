import type { ParsedQuery } from './parsed-query';
import type { SearchHit } from './tool-descriptor';
import { TopK } from './top-k';

/** Options of `ToolIndex.search`. */
export interface SearchOptions {
  /**
   * How many hits to return at most.
   * @default 5
   */
  topK?: number;
  /**
   * Hits scoring at or below this are dropped.
   * @default 0
   */
  minScore?: number;
  /** Keeps only the tools it returns `true` for; a filter that throws excludes the tool. */
  filter?: (id: string) => boolean;
}

/** A scored tool of one index, before descriptions are looked up. */
export interface Candidate {
  id: string;
  score: number;
  slot: number;
}

/** @internal What {@link searchIndexes} needs of an index (`ToolIndex` is one). */
export interface SearchableIndex {
  readonly size: number;
  /** Parses a query with the index's tokenizer. */
  parseQuery(query: string): ParsedQuery;
  /** Live documents containing an analyzed term. */
  documentFrequency(term: string): number;
  /** Scores the index's tools with the given idf per term, feeding the passing ones to `top`. */
  collect(
    query: ParsedQuery,
    idf: readonly number[],
    options: {
      minScore: number;
      filter: ((id: string) => boolean) | undefined;
      top: TopK<Candidate>;
    },
  ): void;
  /** The description of a tool `collect` returned, by its slot. */
  descriptionAt(slot: number): string;
}

const DEFAULT_TOP_K = 5;

/**
 * @internal Searches several indexes as one corpus: document frequencies and counts are summed
 * so a small per-request index and a large static one share one idf; each index keeps its own
 * average field lengths. Used for tools resolved per request, and by `ToolIndex.search` alone.
 */
export function searchIndexes(
  indexes: readonly SearchableIndex[],
  query: string,
  options: SearchOptions & {
    /** Per index, a filter applied to that index only (a request's tool shadowing a static one). */
    indexFilters?: readonly (((id: string) => boolean) | undefined)[];
  } = {},
): SearchHit[] {
  const topK = resolveTopK(options.topK);
  const primary = indexes[0];
  if (topK === 0 || !primary) return [];
  const minScore = Number.isNaN(options.minScore) ? 0 : (options.minScore ?? 0);
  const parsed = primary.parseQuery(query);
  let total = 0;
  for (const index of indexes) total += index.size;
  const idf = parsed.terms.map((term) => {
    let frequency = 0;
    for (const index of indexes) frequency += index.documentFrequency(term);
    return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
  });
  const top = new TopK<Candidate & { index: SearchableIndex }>(topK);
  for (const [position, index] of indexes.entries()) {
    const sink = new TopK<Candidate>(topK);
    const indexFilter = options.indexFilters?.[position];
    const filter =
      indexFilter && options.filter
        ? (id: string) => indexFilter(id) && options.filter!(id)
        : (indexFilter ?? options.filter);
    index.collect(parsed, idf, { minScore, filter, top: sink });
    for (const hit of sink.sorted()) top.push({ ...hit, index });
  }
  return top.sorted().map((hit) => ({
    id: hit.id,
    score: hit.score,
    description: hit.index.descriptionAt(hit.slot),
  }));
}

function resolveTopK(topK: number | undefined): number {
  if (topK === undefined || Number.isNaN(topK)) return DEFAULT_TOP_K;
  if (topK === Number.POSITIVE_INFINITY) return Number.MAX_SAFE_INTEGER;
  return Math.max(0, Math.floor(topK));
}
