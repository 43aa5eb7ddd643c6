import { describe, expect, it } from 'vitest';
import {
  type BreakEvenPoint,
  breakEven,
  breakEvenTable,
  describeBreakEven,
} from './cost-break-even';
import { PRICE_VARIANTS, type PriceKey } from './cost-price-lists';

/** A point whose every-tool and proxy totals are the same under every price variant. */
function point(tools: number, weight: number, everyTool: number, proxy: number): BreakEvenPoint {
  const all = (value: number) => {
    const prices = {} as Record<PriceKey, number>;
    for (const variant of PRICE_VARIANTS) prices[variant.key] = value;
    return prices;
  };
  return { tools, weight, everyTool: all(everyTool), proxy: all(proxy) };
}

describe('breakEven', () => {
  it('interpolates the weight where sending every tool starts to cost more', () => {
    // Every tool: 1,000 + weight; tool search: 3,000. They meet at 2,000 tokens.
    const points = [
      point(32, 4_000, 5_000, 3_000),
      point(8, 1_000, 2_000, 3_000),
      point(16, 2_500, 3_500, 3_000),
    ];
    expect(breakEven(points, 'anthropic')).toEqual({ kind: 'at', weight: 2_000 });
    expect(describeBreakEven(breakEven(points, 'anthropic'))).toBe('2,000');
  });

  it('says below the smallest weight when tool search is cheaper everywhere, above the largest in the other case', () => {
    const cheaperSearch = [point(8, 1_000, 4_000, 3_000), point(16, 2_000, 5_000, 3_000)];
    expect(describeBreakEven(breakEven(cheaperSearch, 'openai'))).toBe('< 1,000');
    const cheaperEvery = [point(8, 1_000, 1_000, 3_000), point(16, 2_000, 2_000, 3_000)];
    expect(describeBreakEven(breakEven(cheaperEvery, 'openai'))).toBe('> 2,000');
    expect(breakEven([], 'openai')).toBeUndefined();
  });

  it('takes the first crossing when the difference goes back and forth', () => {
    const points = [
      point(8, 1_000, 2_000, 3_000),
      point(16, 2_000, 4_000, 3_000),
      point(32, 3_000, 2_500, 3_000),
    ];
    expect(breakEven(points, 'anthropic')).toEqual({ kind: 'at', weight: 1_500 });
  });
});

describe('breakEvenTable', () => {
  it('lists the measured sizes and one break-even per price variant', () => {
    const table = breakEvenTable([
      {
        label: 'short task',
        points: [point(8, 1_000, 2_000, 3_000), point(16, 3_000, 4_000, 3_000)],
      },
    ]);
    const line = table.split('\n').find((row) => row.startsWith('| short task |'))!;
    expect(line).toContain('8: 1,000, 16: 3,000');
    expect(line.split('|').filter((cell) => cell.trim() === '2,000')).toHaveLength(
      PRICE_VARIANTS.length,
    );
  });
});
