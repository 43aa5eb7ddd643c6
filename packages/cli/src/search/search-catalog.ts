import { type SearchHit, ToolIndex, type ToolIndexOptions } from 'tool-search-core';
import type { EmbeddingsSetup } from '../cli/embeddings-flags';
import { type Catalog, toDescriptor } from '../source/catalog';
import { createMatchExplainer, type FieldMatch } from './explain-match';
import { createFusedRanker } from './fused-ranker';

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

/** Hits of a search with embeddings, and how they were ranked. */
export interface FusedSearchResult {
  hits: ExplainedHit[];
  /** `'fusion'`: BM25F fused with the embeddings; `'bm25f'`: the endpoint failed (see `failure`). */
  mode: 'fusion' | 'bm25f';
  /** Why the endpoint could not be used, when it could not. */
  failure?: string;
}

/**
 * Ranks a catalog for a query as `search_tools` does with an embeddings endpoint: BM25F fused
 * with cosine similarity by reciprocal-rank fusion, scores in (0, 1]. When the endpoint fails,
 * the hits are BM25F's (with its scores) and `failure` says why.
 * @param catalog - the tools
 * @param query - the query
 * @param options - top k, minimum score, ranking options, and the endpoint
 */
export async function searchCatalogFused(
  catalog: Pick<Catalog, 'tools'>,
  query: string,
  options: SearchCatalogOptions & { embeddings: EmbeddingsSetup },
): Promise<FusedSearchResult> {
  const ranker = createFusedRanker({
    tools: catalog.tools,
    depth: options.topK ?? DEFAULT_SEARCH_TOP_K,
    embeddings: options.embeddings,
    ...(options.index && { index: options.index }),
    ...(options.minScore !== undefined && { minScore: options.minScore }),
  });
  let failure: string | undefined;
  try {
    await ranker.warm();
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure === undefined) {
    const ranking = await ranker.rank(query);
    failure = ranking.failure;
    if (failure === undefined) {
      const explain = createMatchExplainer(options.index?.tokenizer);
      const byId = new Map(catalog.tools.map((tool) => [tool.id, tool]));
      return {
        hits: ranking.hits.map((hit) => ({ ...hit, matched: explain(byId.get(hit.id)!, query) })),
        mode: 'fusion',
      };
    }
  }
  return { hits: searchCatalog(catalog, query, options), mode: 'bm25f', failure };
}
