import { type SearchHit, ToolIndex, type ToolIndexOptions } from 'tool-search-core';
import { type Catalog, toDescriptor } from '../source/catalog';
import { createMatchExplainer, type FieldMatch } from './explain-match';

/** Options of {@link searchCatalog}. */
export interface SearchCatalogOptions {
  /**
   * Hits returned at most.
   * @default 5
   */
  topK?: number;
  /**
   * Hits scoring at or below this are dropped.
   * @default 0
   */
  minScore?: number;
  /** Ranking options: field weights, BM25 parameters, ID boosts, tokenizer options. */
  index?: ToolIndexOptions;
}

/** A search hit with the fields that matched. */
export interface ExplainedHit extends SearchHit {
  /** Which fields of the tool hold which query terms. */
  matched: FieldMatch[];
}

/** Hits `search` returns unless `--top-k` says otherwise: what `search_tools` shows a model. */
export const DEFAULT_SEARCH_TOP_K = 5;

/**
 * Ranks a catalog for a query with `ToolIndex`, as the engine's `search_tools` does, and says
 * which fields of each hit matched.
 * @param catalog - the tools
 * @param query - the query
 * @param options - top k, minimum score, ranking options
 * @example
 * const hits = searchCatalog(catalog, 'weather in Paris', { topK: 3 });
 */
export function searchCatalog(
  catalog: Pick<Catalog, 'tools'>,
  query: string,
  options: SearchCatalogOptions = {},
): ExplainedHit[] {
  const index = new ToolIndex(catalog.tools.map(toDescriptor), options.index);
  const hits = index.search(query, {
    topK: options.topK ?? DEFAULT_SEARCH_TOP_K,
    minScore: options.minScore ?? 0,
  });
  const explain = createMatchExplainer(options.index?.tokenizer);
  const byId = new Map(catalog.tools.map((tool) => [tool.id, tool]));
  return hits.map((hit) => ({ ...hit, matched: explain(byId.get(hit.id)!, query) }));
}
