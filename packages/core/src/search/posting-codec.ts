import { FIELD_COUNT } from './tool-index-options';

/** Low seven bits of a varint byte carry the number; the high bit says another byte follows. */
const VARINT_MORE = 0x80;
const VARINT_BITS = 0x7f;
/** A slot gap needs at most five varint bytes (35 bits for a 32-bit number). */
const MAX_VARINT_BYTES = 5;

/**
 * Encodes posting lists compactly for a snapshot: each posting is the gap to the previous slot
 * (minus one) as a varint, a byte with one bit per field that has a count, then those counts. A
 * posting usually names one or two fields and a close slot, so this takes a third of the bytes of
 * a 32-bit slot and five counts (and a restore reads a third of them).
 * @param offsets - where each term's postings start in `slots`, one more entry than terms
 * @param slots - the postings' slots, ascending within a term
 * @param frequencies - `FIELD_COUNT` counts per posting
 * @returns the bytes, and where each term's bytes start (one more entry than terms)
 */
export function encodePostings(
  offsets: Uint32Array,
  slots: Int32Array,
  frequencies: Uint8Array,
): { bytes: Uint8Array; byteOffsets: Uint32Array } {
  const terms = offsets.length - 1;
  const byteOffsets = new Uint32Array(terms + 1);
  let bytes = new Uint8Array(Math.max(64, slots.length * 3));
  let at = 0;
  for (let term = 0; term < terms; term++) {
    let previous = -1;
    for (let position = offsets[term]!; position < offsets[term + 1]!; position++) {
      if (at + MAX_VARINT_BYTES + 1 + FIELD_COUNT > bytes.length) {
        const grown = new Uint8Array(bytes.length * 2);
        grown.set(bytes);
        bytes = grown;
      }
      const slot = slots[position]!;
      let gap = slot - previous - 1;
      previous = slot;
      while (gap >= VARINT_MORE) {
        bytes[at++] = (gap & VARINT_BITS) | VARINT_MORE;
        gap >>>= 7;
      }
      bytes[at++] = gap;
      const base = position * FIELD_COUNT;
      let mask = 0;
      for (let field = 0; field < FIELD_COUNT; field++) {
        if (frequencies[base + field] !== 0) mask |= 1 << field;
      }
      bytes[at++] = mask;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const count = frequencies[base + field]!;
        if (count !== 0) bytes[at++] = count;
      }
    }
    byteOffsets[term + 1] = at;
  }
  return { bytes: bytes.slice(0, at), byteOffsets };
}

/**
 * Decodes one term's postings. Stops early, keeping what it read, at a malformed posting or a
 * slot at or past `slotCount` (only forged bytes can hold one: the checksum vouched for the rest).
 * @param bytes - the term's encoded postings
 * @param count - how many postings they hold
 * @param slotCount - the snapshot's number of tools
 */
export function decodePostings(
  bytes: Uint8Array,
  count: number,
  slotCount: number,
): { slots: Int32Array; frequencies: Uint8Array; length: number } {
  const slots = new Int32Array(count);
  const frequencies = new Uint8Array(count * FIELD_COUNT);
  let at = 0;
  let previous = -1;
  let length = 0;
  while (length < count && at < bytes.length) {
    let gap = 0;
    let shift = 0;
    let byte = VARINT_MORE;
    for (let read = 0; read < MAX_VARINT_BYTES && byte & VARINT_MORE && at < bytes.length; read++) {
      byte = bytes[at++]!;
      gap += (byte & VARINT_BITS) * 2 ** shift;
      shift += 7;
    }
    const slot = previous + 1 + gap;
    if (byte & VARINT_MORE || slot >= slotCount || at >= bytes.length) break;
    const mask = bytes[at++]!;
    const base = length * FIELD_COUNT;
    let complete = true;
    for (let field = 0; field < FIELD_COUNT; field++) {
      if (!(mask & (1 << field))) continue;
      if (at >= bytes.length) complete = false;
      else frequencies[base + field] = bytes[at++]!;
    }
    if (!complete) break;
    slots[length++] = slot;
    previous = slot;
  }
  return { slots, frequencies, length };
}
