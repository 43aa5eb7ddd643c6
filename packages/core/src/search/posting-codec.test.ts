import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { decodePostings, encodePostings } from './posting-codec';
import { FIELD_COUNT } from './tool-index-options';

/** Posting lists of ascending slots below `slotCount`, with counts 0–255 per field (one at least). */
const postingLists = fc
  .array(
    fc
      .uniqueArray(fc.integer({ min: 0, max: 3_000_000 }), { maxLength: 40 })
      .map((slots) => slots.sort((left, right) => left - right)),
    { maxLength: 6 },
  )
  .chain((lists) =>
    fc.tuple(
      fc.constant(lists),
      fc.array(fc.integer({ min: 0, max: 255 }), {
        minLength: lists.flat().length * FIELD_COUNT,
        maxLength: lists.flat().length * FIELD_COUNT,
      }),
    ),
  );

describe('encodePostings / decodePostings', () => {
  it('round-trips any posting lists, gaps of every varint length included', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    fc.assert(
      fc.property(postingLists, ([lists, counts]) => {
        const offsets = new Uint32Array(lists.length + 1);
        lists.forEach((list, term) => {
          offsets[term + 1] = offsets[term]! + list.length;
        });
        const slots = Int32Array.from(lists.flat());
        const frequencies = Uint8Array.from(counts);
        const { bytes, byteOffsets } = encodePostings(offsets, slots, frequencies);
        for (let term = 0; term < lists.length; term++) {
          const start = offsets[term]!;
          const end = offsets[term + 1]!;
          const decoded = decodePostings(
            bytes.subarray(byteOffsets[term]!, byteOffsets[term + 1]!),
            end - start,
            3_000_001,
          );
          expect(decoded.length).toBe(end - start);
          expect([...decoded.slots]).toEqual([...slots.subarray(start, end)]);
          expect([...decoded.frequencies]).toEqual([
            ...frequencies.subarray(start * FIELD_COUNT, end * FIELD_COUNT),
          ]);
        }
      }),
    );
  });

  it('stops at a slot past the tools or bytes that run out, keeping what it read', () => {
    const offsets = Uint32Array.from([0, 3]);
    const slots = Int32Array.from([5, 200, 70_000]);
    const frequencies = new Uint8Array(3 * FIELD_COUNT).fill(1);
    const { bytes } = encodePostings(offsets, slots, frequencies);
    expect([...decodePostings(bytes, 3, 70_000).slots.subarray(0, 2)]).toEqual([5, 200]);
    expect(decodePostings(bytes, 3, 70_000).length).toBe(2);
    expect(decodePostings(bytes.subarray(0, 4), 3, 70_001).length).toBe(0);
    expect(decodePostings(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 1, 10).length).toBe(
      0,
    );
  });
});
