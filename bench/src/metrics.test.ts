import { describe, expect, it } from 'vitest';
import { summarizeQuality } from './metrics';

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
