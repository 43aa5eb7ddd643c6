import { SimilarityScan } from '../embedding/similarity-ranking';
import { type FusedResult, fuseRankings } from '../search/reciprocal-rank-fusion';
import { searchIndexes } from '../search/search-indexes';
import type { SearchHit } from '../search/tool-descriptor';
import type { MetaToolHost } from './meta-tool-host';

/**
 * Each ranking is fused down to at least this rank, whatever the window: a tool 40th by words and
 * 3rd by meaning must still collect both contributions.
 */
const MIN_FUSION_DEPTH = 100;

/** Ranks a query's best `window` tools, best first. */
export type Ranker = (window: number) => SearchHit[];

/**
 * The fused ranker of a search: BM25F's ranking and the embeddings' (cosine similarity) merged by
 * reciprocal-rank fusion. A fused score is the fusion's sum divided by its largest possible value,
 * so `1` means first in both rankings and every score lies in (0, 1]. `undefined` when the engine
 * has no `embed`, or the embedder failed for this search (already reported): then the search
 * ranks by BM25F alone.
 * @param session - the request: its indexes, shadowed ids and `onError`
 * @param query - the model's query
 * @param indexFilters - per index, the shadowing filter the BM25F search uses too
 */
export async function fusedRanker<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  query: string,
  indexFilters: readonly ((id: string) => boolean)[] | undefined,
): Promise<Ranker | undefined> {
  const { embeddings, settings: options } = session;
  if (!embeddings) return undefined;
  const prepared = await embeddings.prepare(session.searchables, query, (operation, error) =>
    session.emit('onError', { threadId: session.threadId, operation, error }),
  );
  if (!prepared) return undefined;
  const { k, textWeight, vectorWeight, minSimilarity } = options.fusion;
  const best = (textWeight + vectorWeight) / (k + 1);
  const indexes = session.indexes;
  // The first pass over every tool's vector runs once per search, whatever the windows.
  const similarity = new SimilarityScan(prepared.query, prepared.matrices);
  // Windows up to MIN_FUSION_DEPTH rank the same depth: computed once.
  let last: { depth: number; fused: FusedResult[] } | undefined;
  return (window) => {
    const depth = Math.max(window, MIN_FUSION_DEPTH);
    if (last?.depth !== depth) {
      const text = searchIndexes(indexes, query, {
        topK: depth,
        minScore: options.minScore,
        ...(indexFilters && { indexFilters }),
      });
      const similar = similarity.rank({
        depth,
        minSimilarity,
        ...(indexFilters && { filters: indexFilters }),
      });
      const fused = fuseRankings(
        [
          { ids: text.map((hit) => hit.id), weight: textWeight },
          { ids: similar.map((hit) => hit.id), weight: vectorWeight },
        ],
        k,
      );
      last = { depth, fused };
    }
    return last.fused
      .slice(0, window)
      .map(({ id, score }) => ({ id, score: score / best, description: '' }));
  };
}
