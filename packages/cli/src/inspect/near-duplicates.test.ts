import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../source/catalog';
import { OFFICE_TOOLS } from '../test-utils/catalogs';
import { findNearDuplicates } from './near-duplicates';

describe('findNearDuplicates', () => {
  it('pairs tools with the same text under other names, and only those', () => {
    const tools: CatalogTool[] = [...OFFICE_TOOLS, { ...OFFICE_TOOLS[0]!, id: 'weather_now' }];
    const pairs = findNearDuplicates(tools);
    expect(pairs.map((pair) => pair.ids)).toEqual([['get_weather', 'weather_now']]);
    expect(pairs[0]!.similarity).toBeGreaterThan(0.9);
    expect(pairs[0]!.similarity).toBeLessThanOrEqual(1);
  });

  it('finds tools of the same words identical even when they are the whole catalog', () => {
    // With two tools every shared term is in all of them: the smoothed idf still counts it.
    const pairs = findNearDuplicates([
      { id: 'send_email', description: 'Send an email' },
      { id: 'email_send', description: 'Send an email' },
    ]);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]!.similarity).toBeCloseTo(1, 10);
  });

  it('weighs the words that set tools apart: shared common words alone are not enough', () => {
    const common = 'Returns the item for the given identifier';
    const tools: CatalogTool[] = [
      { id: 'get_invoice', description: `Invoice lookup. ${common}` },
      { id: 'get_shipment', description: `Shipment tracking. ${common}` },
      ...['customer', 'order', 'refund', 'ticket'].map((noun) => ({
        id: `get_${noun}`,
        description: `${noun} ${common}`,
      })),
    ];
    expect(findNearDuplicates(tools, { threshold: 0.8 })).toEqual([]);
  });

  it('returns pairs sorted, with similarities in [0, 1] and at the threshold or above', () => {
    const word = fc.constantFrom(
      'send',
      'email',
      'file',
      'read',
      'weather',
      'city',
      'list',
      'create',
    );
    const tool = fc.record({
      description: fc.array(word, { maxLength: 6 }).map((words) => words.join(' ')),
    });
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 12 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (raw, threshold) => {
          const tools = raw.map((entry, position) => ({ id: `t${position}`, ...entry }));
          const pairs = findNearDuplicates(tools, { threshold });
          for (const [position, pair] of pairs.entries()) {
            expect(pair.similarity).toBeGreaterThanOrEqual(threshold);
            expect(pair.similarity).toBeLessThanOrEqual(1);
            if (position > 0)
              expect(pair.similarity).toBeLessThanOrEqual(pairs[position - 1]!.similarity);
            expect(pair.ids[0]).not.toBe(pair.ids[1]);
          }
        },
      ),
    );
  });
});
