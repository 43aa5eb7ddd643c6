import { describe, expect, it } from 'vitest';
import { mean, median, percentile } from './statistics';

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
