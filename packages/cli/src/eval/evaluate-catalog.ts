import { type SearchHit, ToolIndex, type ToolIndexOptions } from 'tool-search-core';
import { CliError } from '../cli/cli-error';
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

/** What `tool-search eval --json` prints: each metric averaged over the queries. */
export interface EvalReport {
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
  const { tools, queries, minScore = 0, worst: worstCount = DEFAULT_WORST } = options;
  const ids = new Set(tools.map((tool) => tool.id));
  queries.forEach((labelled, position) => {
    labelled.relevant.forEach((id, at) => {
      if (!ids.has(id)) {
        const path = childPath(childPath(childPath('$.queries', position), 'relevant'), at);
        throw new CliError(
          `${options.label ?? 'queries'}: ${path}: ${JSON.stringify(id)} is not a tool of the catalog`,
        );
      }
    });
  });
  const index = new ToolIndex(tools.map(toDescriptor), options.index);
  const totals = { recallAt1: 0, recallAt5: 0, recallAt10: 0, mrr: 0, ndcg: 0 };
  const scored: { position: number; ndcg: number; recallAt10: number }[] = [];
  queries.forEach(({ query, relevant }, position) => {
    const ranked = index.search(query, { topK: EVAL_DEPTH, minScore }).map((hit) => hit.id);
    const ndcg = ndcgAt(ranked, relevant, EVAL_DEPTH);
    const recallAt10 = recallAt(ranked, relevant, EVAL_DEPTH);
    totals.recallAt1 += recallAt(ranked, relevant, 1);
    totals.recallAt5 += recallAt(ranked, relevant, 5);
    totals.recallAt10 += recallAt10;
    totals.mrr += reciprocalRankAt(ranked, relevant, EVAL_DEPTH);
    totals.ndcg += ndcg;
    if (ndcg < 1) scored.push({ position, ndcg, recallAt10 });
    options.onProgress?.(position + 1, queries.length);
  });
  scored.sort((a, b) => a.ndcg - b.ndcg || a.recallAt10 - b.recallAt10 || a.position - b.position);
  const worst = scored.slice(0, Math.max(0, worstCount)).map(({ position, ndcg, recallAt10 }) => {
    const { query, relevant } = queries[position]!;
    const deep = index.search(query, { topK: RANK_SEARCH_DEPTH, minScore });
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
    tools: tools.length,
    worst,
  };
}
