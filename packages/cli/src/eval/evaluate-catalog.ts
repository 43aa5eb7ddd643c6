import { type SearchHit, ToolIndex, type ToolIndexOptions } from 'tool-search-core';
import { CliError } from '../cli/cli-error';
import type { EmbeddingsSetup } from '../cli/embeddings-flags';
import { createFusedRanker } from '../search/fused-ranker';
import { type CatalogTool, type LabelledQuery, toDescriptor } from '../source/catalog';
import { childPath } from '../source/json-path';
import { ndcgAt, recallAt, reciprocalRankAt } from './metrics';

/** Options of {@link evaluateCatalog}. */
export interface EvaluateCatalogOptions {
  /** The catalog. */
  tools: readonly CatalogTool[];
  /** Labelled queries; every relevant id must be a tool of the catalog. */
  queries: readonly LabelledQuery[];
  /** Ranking options: field weights, BM25 parameters, ID boosts, tokenizer options. */
  index?: ToolIndexOptions;
  /**
   * Hits scoring at or below this are dropped (they count as not found).
   * @default 0
   */
  minScore?: number;
  /**
   * How many of the worst queries to report.
   * @default 10
   */
  worst?: number;
  /** Called after each query with the count done and the total, for a progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** Names the queries' source in errors. @default 'queries' */
  label?: string;
}

/** A relevant tool of a poorly answered query, and where search put it. */
export interface RelevantRank {
  id: string;
  /** Its rank from 1, or `null` when it is not in the first {@link RANK_SEARCH_DEPTH} hits. */
  rank: number | null;
}

/** A query the catalog answers badly, with what came back instead. */
export interface WorstQuery {
  query: string;
  /** The relevant tools and their ranks. */
  relevant: RelevantRank[];
  /** The first hits search returned, best first. */
  returned: Pick<SearchHit, 'id' | 'score'>[];
  /** This query's nDCG@10 (the order of the worst list). */
  ndcg: number;
  /** This query's recall@10. */
  recallAt10: number;
}

/** The five metrics, each averaged over the queries. */
export type EvalMetrics = Pick<
  EvalReport,
  'recallAt1' | 'recallAt5' | 'recallAt10' | 'mrr' | 'ndcg'
>;

/** What `tool-search eval --json` prints: each metric averaged over the queries. */
export interface EvalReport {
  /**
   * How the queries were ranked: `'bm25f'` (words alone), or `'fusion'` (BM25F fused with an
   * embeddings endpoint's ranking, as `search_tools` does with `embed`).
   */
  mode: 'bm25f' | 'fusion';
  /** Under fusion: the embedding model (with `@dimensions` when the endpoint was asked for some). */
  embeddingsModel?: string;
  /** Under fusion: the same queries ranked by BM25F alone, to compare. */
  bm25f?: EvalMetrics;
  /** Share of a query's relevant tools in the top 1, averaged over queries. */
  recallAt1: number;
  /** Share of a query's relevant tools in the top 5, averaged over queries. */
  recallAt5: number;
  /** Share of a query's relevant tools in the top 10, averaged over queries. */
  recallAt10: number;
  /** MRR@10: 1 / rank of the first relevant tool in the top 10 (0 if none), averaged. */
  mrr: number;
  /** nDCG@10 with binary gains, averaged. */
  ndcg: number;
  /** Number of queries. */
  queries: number;
  /** Number of tools in the catalog. */
  tools: number;
  /** The worst-answered queries (lowest nDCG@10, then lowest recall@10), worst first; perfect ones never. */
  worst: WorstQuery[];
}

/** The metrics look at the first 10 hits (recall@10, MRR@10, nDCG@10). */
const EVAL_DEPTH = 10;
/** How deep the worst queries are searched again to say where their relevant tools ended up. */
export const RANK_SEARCH_DEPTH = 100;
/** Hits shown per worst query: enough to see what took the relevant tool's place. */
const RETURNED_SHOWN = 5;
/** Worst queries reported unless told otherwise. */
export const DEFAULT_WORST = 10;

/**
 * Ranks every labelled query with `ToolIndex` (top 10, as the benchmark does) and averages
 * recall@1/5/10, MRR@10 and nDCG@10 over the queries.
 * @param options - the catalog, the queries, ranking options, how many worst queries to keep
 * @throws {CliError} when a relevant id is not a tool of the catalog
 * @example
 * const report = evaluateCatalog({ tools, queries: [{ query: 'weather', relevant: ['get_weather'] }] });
 * report.recallAt5; // 1
 */
export function evaluateCatalog(options: EvaluateCatalogOptions): EvalReport {
  const { queries, minScore = 0 } = options;
  checkLabels(options);
  const index = new ToolIndex(options.tools.map(toDescriptor), options.index);
  const rankings = queries.map(({ query }, position) => {
    const ranked = index.search(query, { topK: EVAL_DEPTH, minScore }).map((hit) => hit.id);
    options.onProgress?.(position + 1, queries.length);
    return ranked;
  });
  return {
    mode: 'bm25f',
    ...summarize(options, rankings, (position) =>
      index.search(queries[position]!.query, { topK: RANK_SEARCH_DEPTH, minScore }),
    ),
  };
}

/** Options of {@link evaluateCatalogFused}. */
export interface EvaluateCatalogFusedOptions extends EvaluateCatalogOptions {
  /** The embeddings endpoint. */
  embeddings: EmbeddingsSetup;
}

/**
 * {@link evaluateCatalog} with an embeddings endpoint: every query ranked as `search_tools` does
 * with `embed` (BM25F fused with cosine similarity by reciprocal-rank fusion), and the BM25F
 * metrics of the same queries alongside. The catalog is embedded first and the queries in
 * batches.
 * @param options - as {@link evaluateCatalog}, and the endpoint
 * @throws {CliError} when a relevant id is not a tool of the catalog, or when the endpoint fails
 *   for the catalog or for any query (fused metrics mixed with BM25F's would mislead)
 */
export async function evaluateCatalogFused(
  options: EvaluateCatalogFusedOptions,
): Promise<EvalReport> {
  const { queries } = options;
  checkLabels(options);
  const ranker = createFusedRanker({
    tools: options.tools,
    depth: RANK_SEARCH_DEPTH,
    embeddings: options.embeddings,
    ...(options.index && { index: options.index }),
    ...(options.minScore !== undefined && { minScore: options.minScore }),
  });
  await ranker.warm();
  await ranker.prefetch(queries.map(({ query }) => query));
  const deep: SearchHit[][] = [];
  const failures: string[] = [];
  for (const [position, { query }] of queries.entries()) {
    const ranking = await ranker.rank(query);
    if (ranking.failure !== undefined) failures.push(ranking.failure);
    deep.push(ranking.hits);
    options.onProgress?.(position + 1, queries.length);
  }
  if (failures.length > 0) {
    throw new CliError(
      `the embeddings endpoint (${options.embeddings.label}) failed for ${failures.length} of ${queries.length} queries (first: ${failures[0]}); fused and BM25F rankings would be mixed, so no metrics are reported`,
    );
  }
  const { onProgress: _progress, embeddings: _embeddings, ...lexical } = options;
  const { recallAt1, recallAt5, recallAt10, mrr, ndcg } = evaluateCatalog({ ...lexical, worst: 0 });
  return {
    mode: 'fusion',
    embeddingsModel: options.embeddings.model,
    bm25f: { recallAt1, recallAt5, recallAt10, mrr, ndcg },
    ...summarize(
      options,
      deep.map((hits) => hits.slice(0, EVAL_DEPTH).map((hit) => hit.id)),
      (position) => deep[position]!,
    ),
  };
}

/** Every relevant id must be a tool of the catalog. */
function checkLabels(options: EvaluateCatalogOptions): void {
  const ids = new Set(options.tools.map((tool) => tool.id));
  options.queries.forEach((labelled, position) => {
    labelled.relevant.forEach((id, at) => {
      if (!ids.has(id)) {
        const path = childPath(childPath(childPath('$.queries', position), 'relevant'), at);
        throw new CliError(
          `${options.label ?? 'queries'}: ${path}: ${JSON.stringify(id)} is not a tool of the catalog`,
        );
      }
    });
  });
}

/**
 * The averaged metrics and the worst queries, from each query's top {@link EVAL_DEPTH} ids and a
 * deeper search for the worst ones.
 */
function summarize(
  options: EvaluateCatalogOptions,
  rankings: readonly string[][],
  deepSearch: (position: number) => readonly SearchHit[],
): Omit<EvalReport, 'mode'> {
  const { queries, worst: worstCount = DEFAULT_WORST } = options;
  const totals = { recallAt1: 0, recallAt5: 0, recallAt10: 0, mrr: 0, ndcg: 0 };
  const scored: { position: number; ndcg: number; recallAt10: number }[] = [];
  queries.forEach(({ relevant }, position) => {
    const ranked = rankings[position]!;
    const ndcg = ndcgAt(ranked, relevant, EVAL_DEPTH);
    const recallAt10 = recallAt(ranked, relevant, EVAL_DEPTH);
    totals.recallAt1 += recallAt(ranked, relevant, 1);
    totals.recallAt5 += recallAt(ranked, relevant, 5);
    totals.recallAt10 += recallAt10;
    totals.mrr += reciprocalRankAt(ranked, relevant, EVAL_DEPTH);
    totals.ndcg += ndcg;
    if (ndcg < 1) scored.push({ position, ndcg, recallAt10 });
  });
  scored.sort((a, b) => a.ndcg - b.ndcg || a.recallAt10 - b.recallAt10 || a.position - b.position);
  const worst = scored.slice(0, Math.max(0, worstCount)).map(({ position, ndcg, recallAt10 }) => {
    const { query, relevant } = queries[position]!;
    const deep = deepSearch(position);
    const rankOf = new Map(deep.map((hit, at) => [hit.id, at + 1]));
    return {
      query,
      relevant: [...new Set(relevant)].map((id) => ({ id, rank: rankOf.get(id) ?? null })),
      returned: deep.slice(0, RETURNED_SHOWN).map(({ id, score }) => ({ id, score })),
      ndcg,
      recallAt10,
    };
  });
  const count = queries.length;
  const average = (sum: number) => (count === 0 ? 0 : sum / count);
  return {
    recallAt1: average(totals.recallAt1),
    recallAt5: average(totals.recallAt5),
    recallAt10: average(totals.recallAt10),
    mrr: average(totals.mrr),
    ndcg: average(totals.ndcg),
    queries: count,
    tools: options.tools.length,
    worst,
  };
}
