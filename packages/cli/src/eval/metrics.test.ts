import { describe, expect, it } from 'vitest';
import { ndcgAt, recallAt, reciprocalRankAt } from './metrics';

describe('recallAt', () => {
  it('is the share of relevant ids in the first k', () => {
    expect(recallAt(['a', 'b', 'c', 'd'], ['b', 'd', 'z'], 2)).toBeCloseTo(1 / 3);
    expect(recallAt(['a', 'b', 'c', 'd'], ['b', 'd', 'z'], 4)).toBeCloseTo(2 / 3);
  });

  it('counts a repeated id once and is 0 without relevant ids', () => {
    expect(recallAt(['a', 'a'], ['a', 'b'], 2)).toBe(0.5);
    expect(recallAt(['a'], ['a', 'a'], 1)).toBe(1);
    expect(recallAt(['a'], [], 5)).toBe(0);
  });

  it('is 0 for an empty ranking', () => {
    expect(recallAt([], ['a'], 10)).toBe(0);
  });
});

describe('reciprocalRankAt', () => {
  it('is one over the rank of the first relevant id within k', () => {
    expect(reciprocalRankAt(['x', 'y', 'a'], ['a', 'y'], 10)).toBe(0.5);
    expect(reciprocalRankAt(['x', 'y', 'a'], ['a'], 2)).toBe(0);
  });

  it('is 0 when no relevant id is ranked', () => {
    expect(reciprocalRankAt(['a', 'b'], ['z'], 10)).toBe(0);
    expect(reciprocalRankAt([], ['z'], 10)).toBe(0);
  });
});

describe('ndcgAt', () => {
  it('discounts by log2(rank + 1) against an ideal ranking', () => {
    // One relevant id at rank 2: (1 / log2 3) / (1 / log2 2).
    expect(ndcgAt(['x', 'a'], ['a'], 10)).toBeCloseTo(1 / Math.log2(3));
    // Two relevant at ranks 1 and 3: (1 + 1/2) / (1 + 1/log2 3).
    expect(ndcgAt(['a', 'x', 'b'], ['a', 'b'], 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)));
  });

  it('is 1 for a perfect ranking and caps the ideal at k', () => {
    expect(ndcgAt(['a', 'b'], ['a', 'b'], 10)).toBe(1);
    expect(ndcgAt(['a'], ['a', 'b', 'c'], 1)).toBe(1);
  });

  it('gains once for a repeated id', () => {
    expect(ndcgAt(['a', 'a'], ['a', 'b'], 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)));
  });

  it('ignores results past k and is 0 without relevant ids', () => {
    expect(ndcgAt(['x', 'a'], ['a'], 1)).toBe(0);
    // One of three relevant ids found, at rank 3: 0.5 / (1 + 1/log2 3 + 0.5).
    expect(ndcgAt(['x', 'y', 'a'], ['a', 'b', 'c'], 10)).toBeCloseTo(0.5 / 2.1309298);
    expect(ndcgAt(['a'], [], 10)).toBe(0);
  });
});
