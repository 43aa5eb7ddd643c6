import { describe, expect, it } from 'vitest';
import { DEFAULT_RRF_K, fuseRankings } from './reciprocal-rank-fusion';

describe('fuseRankings', () => {
  it('sums weight / (k + rank) over the rankings', () => {
    const fused = fuseRankings(
      [
        { ids: ['a', 'b', 'c'], weight: 1 },
        { ids: ['c', 'a'], weight: 2 },
      ],
      10,
    );
    // c: 1/13 + 2/11 ≈ 0.2587 edges out a: 1/11 + 2/12 ≈ 0.2576.
    expect(fused.map((result) => result.id)).toEqual(['c', 'a', 'b']);
    expect(fused[0]!.score).toBeCloseTo(1 / 13 + 2 / 11, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 11 + 2 / 12, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 12, 12);
  });

  it('uses k = 60 by default', () => {
    expect(DEFAULT_RRF_K).toBe(60);
    expect(fuseRankings([{ ids: ['a'], weight: 1 }])[0]!.score).toBe(1 / 61);
  });

  it('breaks ties by the better single rank, then by id', () => {
    // b is 1st in one ranking and 3rd in the other, like d; a and c are 2nd in both.
    const fused = fuseRankings(
      [
        { ids: ['d', 'a', 'b'], weight: 1 },
        { ids: ['b', 'c', 'd'], weight: 1 },
      ],
      0,
    );
    expect(fused.map((result) => result.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('gives nothing for empty rankings', () => {
    expect(fuseRankings([])).toEqual([]);
    expect(fuseRankings([{ ids: [], weight: 1 }])).toEqual([]);
  });
});
