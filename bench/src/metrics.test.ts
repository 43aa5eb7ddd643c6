import { describe, expect, it } from 'vitest';
import {
  mean,
  median,
  ndcgAt,
  percentile,
  recallAt,
  reciprocalRankAt,
  summarizeQuality,
} from './metrics';

describe('recallAt', () => {
  it('counts the share of relevant ids in the top k', () => {
    const ranked = ['a', 'b', 'c', 'd', 'e'];
    expect(recallAt(ranked, ['c'], 1)).toBe(0);
    expect(recallAt(ranked, ['c'], 3)).toBe(1);
    expect(recallAt(ranked, ['a', 'e', 'z'], 5)).toBeCloseTo(2 / 3);
    expect(recallAt(ranked, ['a', 'e'], 1)).toBe(0.5);
  });

  it('handles short rankings, duplicates and empty labels', () => {
    expect(recallAt([], ['a'], 10)).toBe(0);
    expect(recallAt(['a', 'a'], ['a', 'b'], 10)).toBe(0.5);
    expect(recallAt(['a'], ['a', 'a'], 1)).toBe(1);
    expect(recallAt(['a'], [], 1)).toBe(0);
  });
});

describe('reciprocalRankAt', () => {
  it('is one over the rank of the first relevant id', () => {
    expect(reciprocalRankAt(['a', 'b', 'c'], ['a'], 10)).toBe(1);
    expect(reciprocalRankAt(['a', 'b', 'c'], ['c', 'b'], 10)).toBe(0.5);
    expect(reciprocalRankAt(['a', 'b', 'c'], ['c'], 10)).toBeCloseTo(1 / 3);
  });

  it('is 0 when the first relevant id is past k or absent', () => {
    expect(reciprocalRankAt(['a', 'b', 'c'], ['c'], 2)).toBe(0);
    expect(reciprocalRankAt(['a', 'b'], ['z'], 10)).toBe(0);
    expect(reciprocalRankAt([], ['z'], 10)).toBe(0);
  });
});

describe('ndcgAt', () => {
  it('is 1 for an ideal ranking', () => {
    expect(ndcgAt(['a', 'b', 'x'], ['a', 'b'], 10)).toBe(1);
    expect(ndcgAt(['b', 'a'], ['a', 'b'], 10)).toBe(1);
  });

  it('matches hand-computed values', () => {
    // one relevant id at rank 2: (1 / log2 3) / 1
    expect(ndcgAt(['x', 'a'], ['a'], 10)).toBeCloseTo(1 / Math.log2(3));
    expect(ndcgAt(['x', 'a'], ['a'], 10)).toBeCloseTo(0.6309298);
    // relevant at ranks 1 and 3 of two: (1 + 1/2) / (1 + 1/log2 3)
    expect(ndcgAt(['a', 'x', 'b'], ['a', 'b'], 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)));
    expect(ndcgAt(['a', 'x', 'b'], ['a', 'b'], 10)).toBeCloseTo(0.9197208);
    // one of three relevant found, at rank 3: 0.5 / (1 + 0.6309298 + 0.5)
    expect(ndcgAt(['x', 'y', 'a'], ['a', 'b', 'c'], 10)).toBeCloseTo(0.5 / 2.1309298);
  });

  it('caps the ideal at k and ignores results past k', () => {
    // 3 relevant ids, k = 1: ideal is a single hit at rank 1
    expect(ndcgAt(['a'], ['a', 'b', 'c'], 1)).toBe(1);
    expect(ndcgAt(['x', 'a'], ['a'], 1)).toBe(0);
  });

  it('counts a repeated id once and is 0 for no labels', () => {
    expect(ndcgAt(['a', 'a'], ['a', 'b'], 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)));
    expect(ndcgAt(['a'], [], 10)).toBe(0);
  });
});

describe('statistics', () => {
  it('computes mean, median and interpolated percentiles', () => {
    expect(mean([])).toBe(0);
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBeCloseTo(9.1);
    expect(percentile([5], 90)).toBe(5);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});

describe('summarizeQuality', () => {
  it('averages every metric over the queries', () => {
    const summary = summarizeQuality([
      { ranked: ['a', 'b'], relevant: ['a'] },
      { ranked: ['x', 'y', 'b'], relevant: ['b'] },
    ]);
    expect(summary.queries).toBe(2);
    expect(summary.recallAt1).toBe(0.5);
    expect(summary.recallAt5).toBe(1);
    expect(summary.recallAt10).toBe(1);
    expect(summary.mrrAt10).toBeCloseTo((1 + 1 / 3) / 2);
    expect(summary.ndcgAt10).toBeCloseTo((1 + 0.5) / 2);
  });
});
