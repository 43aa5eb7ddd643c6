import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { TopK } from './top-k';

describe('TopK', () => {
  it('keeps the best k of a stream, best first, ties by id, like a full sort', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    const entries = fc.uniqueArray(
      fc.record({
        // Few distinct scores: many ties, broken by id.
        score: fc.integer({ min: -3, max: 3 }).map((score) => score / 2),
        id: fc.string({ maxLength: 4 }),
      }),
      { selector: (entry) => entry.id, maxLength: 80 },
    );
    fc.assert(
      fc.property(entries, fc.integer({ min: 1, max: 90 }), (stream, capacity) => {
        const top = new TopK<{ score: number; id: string }>(capacity);
        for (const entry of stream) if (top.accepts(entry.score, entry.id)) top.push(entry);
        const expected = [...stream]
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
          .slice(0, capacity);
        expect(top.sorted()).toEqual(expected);
        expect(top.threshold()).toBe(
          expected.length < capacity ? Number.NEGATIVE_INFINITY : expected.at(-1)!.score,
        );
      }),
    );
  });
});
