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
  };
}

/** A posting list over arrays decoded from a snapshot, whose first `length` postings are in use. */
export function postingListOf(
  slots: Int32Array,
  frequencies: Uint8Array,
  length: number,
): PostingList {
  return {
    slots,
    frequencies,
    weights: EMPTY_WEIGHTS,
    bonuses: EMPTY_WEIGHTS,
    length,
    dead: 0,
    epoch: -1,
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

/**
 * Renumbers the postings' slots by `remap`, dropping those it maps to -1 (removed documents),
 * keeping the others in order: `remap` must keep the live slots in ascending order.
 */
export function postingRenumber(posting: PostingList, remap: Int32Array): void {
  let kept = 0;
  for (let position = 0; position < posting.length; position++) {
    const slot = remap[posting.slots[position]!]!;
    if (slot < 0) continue;
    posting.slots[kept] = slot;
    if (kept !== position) {
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

/** The postings of terms `0 .. terms - 1`, grouped by term: term `t` has `[offsets[t], offsets[t + 1])`. */
export interface PostingBlock {
  terms: number;
  offsets: Int32Array;
  /** Slots, ascending within a term. */
  slots: Int32Array;
  /** `FIELD_COUNT` counts per posting. */
  frequencies: Uint8Array;
}

/** Postings per chunk of the constructor's buffer (16,384: 144 kB of terms and counts). */
const CHUNK_BITS = 14;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

/**
 * The postings of many documents, buffered in document order, then written grouped by term into
 * one block in one pass. Documents are slots 0, 1, 2... in the order they are added, each one's
 * postings in one run, so no posting stores its slot. The buffer grows by whole chunks, never by
 * copying: memory written once is the cost that matters at start-up.
 */
export class PendingPostings {
  readonly #termChunks: Int32Array[] = [];
  readonly #countChunks: Uint8Array[] = [];
  #terms: Int32Array = new Int32Array(0);
  #counts: Uint8Array = new Uint8Array(0);
  /** Position in the current chunk. */
  #at = CHUNK_SIZE;
  #length = 0;
  /** Where each slot's postings start, plus the end of the last: slot `s` has `[starts[s], starts[s + 1])`. */
  #starts: Int32Array;
  #slots = 0;

  /** @param expectedSlots - documents expected, to size the run table once */
  constructor(expectedSlots = 64) {
    this.#starts = new Int32Array(Math.max(1, expectedSlots) + 1);
  }

  /**
   * Buffers the postings of the document being added, `count` of them: terms `terms[0 .. count)`
   * and their counts, `FIELD_COUNT` per term, from `counts[0]` on. Copies whole runs at a time.
   */
  appendAll(terms: Int32Array, counts: Uint8Array, count: number): void {
    let from = 0;
    while (from < count) {
      if (this.#at === CHUNK_SIZE) this.#startChunk();
      const run = Math.min(count - from, CHUNK_SIZE - this.#at);
      const at = this.#at;
      const chunkTerms = this.#terms;
      for (let position = 0; position < run; position++) {
        chunkTerms[at + position] = terms[from + position]!;
      }
      this.#counts.set(
        counts.subarray(from * FIELD_COUNT, (from + run) * FIELD_COUNT),
        at * FIELD_COUNT,
      );
      this.#at = at + run;
      this.#length += run;
      from += run;
    }
  }

  #startChunk(): void {
    this.#terms = new Int32Array(CHUNK_SIZE);
    this.#counts = new Uint8Array(CHUNK_SIZE * FIELD_COUNT);
    this.#termChunks.push(this.#terms);
    this.#countChunks.push(this.#counts);
    this.#at = 0;
  }

  /** Ends the postings of `slot`, which must be the next slot (0, then 1...). */
  endSlot(slot: number): void {
    if (slot !== this.#slots) throw new Error(`PendingPostings: slot ${slot} out of order`);
    if (slot + 2 > this.#starts.length) {
      const starts = new Int32Array(this.#starts.length * 2);
      starts.set(this.#starts);
      this.#starts = starts;
    }
    this.#starts[slot + 1] = this.#length;
    this.#slots++;
  }

  /** The term ids of a buffered slot's postings. */
  termsOf(slot: number): Int32Array {
    const start = this.#starts[slot]!;
    const terms = new Int32Array(this.#starts[slot + 1]! - start);
    for (let position = 0; position < terms.length; position++) {
      const at = start + position;
      terms[position] = this.#termChunks[at >>> CHUNK_BITS]![at & CHUNK_MASK]!;
    }
    return terms;
  }

  /**
   * Writes every buffered posting of a live slot into one block of postings grouped by term, in
   * slot order: the index's first batch, so no term had postings before. `liveCounts[termId]` is
   * the term's live postings (its document frequency), so the block is sized without a counting
   * pass. No list is made here: the index makes a term's list over its part of the block when a
   * search first needs it, so the build allocates two arrays instead of three objects per term (a
   * catalog in Chinese has tens of thousands of terms).
   */
  flush(termCount: number, liveCounts: Int32Array, alive: Uint8Array): PostingBlock {
    const termChunks = this.#termChunks;
    const countChunks = this.#countChunks;
    const starts = this.#starts;
    const offsets = new Int32Array(termCount + 1);
    let total = 0;
    for (let termId = 0; termId < termCount; termId++) {
      offsets[termId] = total;
      total += liveCounts[termId]!;
    }
    offsets[termCount] = total;
    const slots = new Int32Array(total);
    const frequencies = new Uint8Array(total * FIELD_COUNT);
    // Where each term's next posting goes.
    const next = offsets.slice(0, termCount);
    for (let slot = 0; slot < this.#slots; slot++) {
      if (alive[slot] !== 1) continue;
      for (let at = starts[slot]!; at < starts[slot + 1]!; at++) {
        const terms = termChunks[at >>> CHUNK_BITS]!;
        const counts = countChunks[at >>> CHUNK_BITS]!;
        const within = at & CHUNK_MASK;
        const position = next[terms[within]!]!++;
        slots[position] = slot;
        const source = within * FIELD_COUNT;
        const target = position * FIELD_COUNT;
        for (let field = 0; field < FIELD_COUNT; field++) {
          frequencies[target + field] = counts[source + field]!;
        }
      }
    }
    return { terms: termCount, offsets, slots, frequencies };
  }
}

/** The list of one term of a block, over the block's arrays (no copy). */
export function postingListIn(block: PostingBlock, termId: number): PostingList {
  const start = block.offsets[termId]!;
  const end = block.offsets[termId + 1]!;
  return postingListOf(
    block.slots.subarray(start, end),
    block.frequencies.subarray(start * FIELD_COUNT, end * FIELD_COUNT),
    end - start,
  );
}
