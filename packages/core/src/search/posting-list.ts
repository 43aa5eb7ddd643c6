import { FIELD_COUNT } from './tool-index-options';

const INITIAL_CAPACITY = 4;
/** Weights are allocated when a search first needs them, not while indexing. */
const EMPTY_WEIGHTS = new Float32Array(0);
/** A new list owns no arrays: the constructor sizes them exactly, `postingAppend` grows them. */
const EMPTY_SLOTS = new Int32Array(0);
const EMPTY_FREQUENCIES = new Uint8Array(0);

/** The documents containing one term, in typed arrays that grow by doubling. */
export interface PostingList {
  /** Document slots, `length` of them in use. */
  slots: Int32Array;
  /** Term frequency per field, `FIELD_COUNT` per posting. */
  frequencies: Uint8Array;
  /** Cached saturated BM25F pseudo-frequency per posting, valid while `epoch` matches the index's. */
  weights: Float32Array;
  /** Cached ID-word boost per posting (the boost, or 0), valid with `weights`. */
  bonuses: Float32Array;
  length: number;
  /** Postings whose document was removed but not yet dropped. */
  dead: number;
  epoch: number;
  /** `slots` and `frequencies` are views of a snapshot's bytes: copy them before writing. */
  borrowed: boolean;
}

export function createPostingList(): PostingList {
  return {
    slots: EMPTY_SLOTS,
    frequencies: EMPTY_FREQUENCIES,
    weights: EMPTY_WEIGHTS,
    bonuses: EMPTY_WEIGHTS,
    length: 0,
    dead: 0,
    epoch: -1,
    borrowed: false,
  };
}

/**
 * A posting list over a snapshot's arrays, full to their length. They are borrowed: appending
 * grows into new arrays anyway, and compaction copies them before writing.
 */
export function postingListOf(slots: Int32Array, frequencies: Uint8Array): PostingList {
  return {
    slots,
    frequencies,
    weights: EMPTY_WEIGHTS,
    bonuses: EMPTY_WEIGHTS,
    length: slots.length,
    dead: 0,
    epoch: -1,
    borrowed: true,
  };
}

/** Appends a posting whose per-field counts are `counts[offset .. offset + FIELD_COUNT)`. */
export function postingAppend(
  posting: PostingList,
  slot: number,
  counts: Uint8Array,
  offset: number,
): void {
  if (posting.length === posting.slots.length) {
    const capacity = Math.max(INITIAL_CAPACITY, posting.slots.length * 2);
    const slots = new Int32Array(capacity);
    slots.set(posting.slots);
    const frequencies = new Uint8Array(capacity * FIELD_COUNT);
    frequencies.set(posting.frequencies);
    posting.slots = slots;
    posting.frequencies = frequencies;
    posting.borrowed = false;
  }
  posting.slots[posting.length] = slot;
  const target = posting.length * FIELD_COUNT;
  for (let field = 0; field < FIELD_COUNT; field++) {
    posting.frequencies[target + field] = counts[offset + field]!;
  }
  posting.length++;
  posting.epoch = -1;
}

/** Drops the postings of removed documents (`alive[slot] === 0`), keeping the others in order. */
export function postingCompact(posting: PostingList, alive: Uint8Array): void {
  if (posting.borrowed) {
    posting.slots = posting.slots.slice(0, posting.length);
    posting.frequencies = posting.frequencies.slice(0, posting.length * FIELD_COUNT);
    posting.borrowed = false;
  }
  let kept = 0;
  for (let position = 0; position < posting.length; position++) {
    const slot = posting.slots[position]!;
    if (alive[slot] === 0) continue;
    if (kept !== position) {
      posting.slots[kept] = slot;
      posting.frequencies.copyWithin(
        kept * FIELD_COUNT,
        position * FIELD_COUNT,
        (position + 1) * FIELD_COUNT,
      );
      if (posting.weights.length > position) {
        posting.weights[kept] = posting.weights[position]!;
        posting.bonuses[kept] = posting.bonuses[position]!;
      }
    }
    kept++;
  }
  posting.length = kept;
  posting.dead = 0;
}

const MIN_PENDING = 1_024;

/** Postings of many documents, buffered flat, then written to their lists in one pass. */
export class PendingPostings {
  #terms: Int32Array;
  #slots: Int32Array;
  #counts: Uint8Array;
  #length = 0;

  /** @param expected - postings expected, to size the buffer once rather than grow it from small */
  constructor(expected = MIN_PENDING) {
    const capacity = Math.max(MIN_PENDING, expected);
    this.#terms = new Int32Array(capacity);
    this.#slots = new Int32Array(capacity);
    this.#counts = new Uint8Array(capacity * FIELD_COUNT);
  }

  append(termId: number, slot: number, counts: Uint8Array, offset: number): void {
    if (this.#length === this.#terms.length) this.#grow();
    const at = this.#length++;
    this.#terms[at] = termId;
    this.#slots[at] = slot;
    const target = at * FIELD_COUNT;
    for (let field = 0; field < FIELD_COUNT; field++)
      this.#counts[target + field] = counts[offset + field]!;
  }

  /**
   * Appends every buffered posting of a live slot to its term's list, in buffer order (slot order).
   * Every list that gains postings moves to a view of one shared block, sized exactly: one
   * allocation instead of two per term (a catalog in Chinese has tens of thousands of terms), and
   * the postings are written into the block directly rather than through each list. Removals made
   * while buffering only marked their lists' `dead` counters; their postings are dropped here, so
   * the counters start over.
   */
  flush(postings: PostingList[], alive: Uint8Array): void {
    const terms = this.#terms;
    const slots = this.#slots;
    const counts = this.#counts;
    const added = new Int32Array(postings.length);
    for (let at = 0; at < this.#length; at++) {
      if (alive[slots[at]!] === 1) added[terms[at]!]!++;
    }
    let blockSize = 0;
    for (let termId = 0; termId < postings.length; termId++) {
      if (added[termId]! > 0) blockSize += postings[termId]!.length + added[termId]!;
    }
    const slotBlock = new Int32Array(blockSize);
    const frequencyBlock = new Uint8Array(blockSize * FIELD_COUNT);
    // Where each growing list's next posting goes in the block.
    const next = new Int32Array(postings.length);
    let offset = 0;
    for (let termId = 0; termId < postings.length; termId++) {
      const posting = postings[termId]!;
      posting.dead = 0;
      if (added[termId] === 0) continue;
      slotBlock.set(posting.slots.subarray(0, posting.length), offset);
      frequencyBlock.set(
        posting.frequencies.subarray(0, posting.length * FIELD_COUNT),
        offset * FIELD_COUNT,
      );
      next[termId] = offset + posting.length;
      const end = offset + posting.length + added[termId]!;
      posting.slots = slotBlock.subarray(offset, end);
      posting.frequencies = frequencyBlock.subarray(offset * FIELD_COUNT, end * FIELD_COUNT);
      posting.length = end - offset;
      posting.borrowed = false;
      posting.epoch = -1;
      offset = end;
    }
    for (let at = 0; at < this.#length; at++) {
      const slot = slots[at]!;
      if (alive[slot] !== 1) continue;
      const position = next[terms[at]!]!++;
      slotBlock[position] = slot;
      const source = at * FIELD_COUNT;
      const target = position * FIELD_COUNT;
      for (let field = 0; field < FIELD_COUNT; field++) {
        frequencyBlock[target + field] = counts[source + field]!;
      }
    }
    this.#length = 0;
  }

  #grow(): void {
    const capacity = this.#terms.length * 2;
    const terms = new Int32Array(capacity);
    terms.set(this.#terms);
    this.#terms = terms;
    const slots = new Int32Array(capacity);
    slots.set(this.#slots);
    this.#slots = slots;
    const counts = new Uint8Array(capacity * FIELD_COUNT);
    counts.set(this.#counts);
    this.#counts = counts;
  }
}
