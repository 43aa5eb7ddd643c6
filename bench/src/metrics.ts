/**
 * The retrieval quality of one ranker over labelled queries. The per-query metrics are the CLI's
 * own (`tool-search eval` computes its figures with them), so the benchmark and the CLI agree by
 * construction; this file only averages them.
 */
import { ndcgAt, recallAt, reciprocalRankAt } from 'tool-search-cli';
import { mean } from './statistics';

/** One query's labels and one ranker's answer to it. */
export interface JudgedRanking {
  ranked: readonly string[];
  relevant: readonly string[];
}

/** The quality figures of one ranker over a set of queries, each averaged over the queries. */
export interface QualitySummary {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrrAt10: number;
  ndcgAt10: number;
}

/** Averages recall@1/5/10, MRR@10 and nDCG@10 over the given queries. */
export function summarizeQuality(rankings: readonly JudgedRanking[]): QualitySummary {
  const over = (metric: (r: JudgedRanking) => number): number => mean(rankings.map(metric));
  return {
    queries: rankings.length,
    recallAt1: over((r) => recallAt(r.ranked, r.relevant, 1)),
    recallAt5: over((r) => recallAt(r.ranked, r.relevant, 5)),
    recallAt10: over((r) => recallAt(r.ranked, r.relevant, 10)),
    mrrAt10: over((r) => reciprocalRankAt(r.ranked, r.relevant, 10)),
    ndcgAt10: over((r) => ndcgAt(r.ranked, r.relevant, 10)),
  };
}
