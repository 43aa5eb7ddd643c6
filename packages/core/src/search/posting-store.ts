import {
  createPostingList,
  PendingPostings,
  type PostingBlock,
  type PostingList,
  postingAppend,
  postingListIn,
  postingListOf,
  postingRenumber,
} from './posting-list';
import type { DecodedSnapshot } from './snapshot-codec';
import { FIELD_COUNT } from './tool-index-options';

/** Initial room, in term ids, of the document frequencies (they double with the dictionary). */
const INITIAL_TERM_CAPACITY = 64;

/**
 * @internal The postings of an index, by term id: which slots hold each term, how often per
 * field, and how many live tools hold it (its document frequency).
 *
 * A term's list is made on first use, from where its postings are: the snapshot a restored index
 * reads in place, the block the constructor's batch wrote, or nothing yet. A removed tool's
 * postings stay (counted as `dead`) until its list is compacted or the slots renumbered.
 */
export class PostingStore {
  /**
   * Posting lists by term id; `undefined` until first used for a term whose postings are in
   * `#built` or `#restored` (made over their arrays then), or that has none yet.
   */
  #lists: (PostingList | undefined)[] = [];
  /** The constructor's postings, grouped by term; each term's list is made on first use. */
  #built: PostingBlock | undefined;
  /** Live documents containing each term. */
  #documentFrequency = new Int32Array(INITIAL_TERM_CAPACITY);
  /** Postings collected by the constructor, written into `#built` when it is done. */
  #pending: PendingPostings | undefined;
  /** The snapshot a restored index reads its postings from. */
  #restored: DecodedSnapshot | undefined;
  /** Term ids below this have their postings in `#restored`. */
  #restoredTerms = 0;

  /** How many term ids it holds postings for (the dictionary's size). */
  get termCount(): number {
    return this.#lists.length;
  }

  /** Whether a batch is being collected (see {@link beginBatch}). */
  get batching(): boolean {
    return this.#pending !== undefined;
  }

  /** Makes room for a new term id (the next one). */
  addTerm(termId: number): void {
    this.#lists.push(undefined);
    if (termId >= this.#documentFrequency.length) {
      const capacity = this.#documentFrequency.length * 2;
      const grown = new Int32Array(capacity);
      grown.set(this.#documentFrequency);
      this.#documentFrequency = grown;
    }
  }

  /** Live documents containing a term. */
  documentFrequency(termId: number): number {
    return this.#documentFrequency[termId]!;
  }

  /**
   * The posting list of a term, made on first use: over the snapshot's arrays for a restored
   * term, over the constructor's block for a term it indexed, empty for a new one.
   */
  listOf(termId: number): PostingList {
    let posting = this.#lists[termId];
    if (posting === undefined) {
      if (termId < this.#restoredTerms) {
        const { slots, frequencies, length } = this.#restored!.postingsOf(termId);
        posting = postingListOf(slots, frequencies, length);
      } else if (this.#built !== undefined && termId < this.#built.terms) {
        posting = postingListIn(this.#built, termId);
      } else {
        posting = createPostingList();
      }
      this.#lists[termId] = posting;
    }
    return posting;
  }

  /**
   * Starts collecting a batch: postings are buffered in one flat buffer and written, grouped by
   * term, into one block at its end, instead of growing every term's list tool by tool.
   * @param expectedSlots - tools expected, if known
   */
  beginBatch(expectedSlots: number | undefined): void {
    this.#pending = new PendingPostings(expectedSlots);
  }

  /** Ends the batch, writing the postings of the slots still `alive` into one block. */
  endBatch(alive: Uint8Array): void {
    const pending = this.#pending!;
    this.#pending = undefined;
    this.#built = pending.flush(this.#lists.length, this.#documentFrequency, alive);
  }

  /**
   * Adds the postings of a tool in `slot`: its `count` distinct terms `terms[0 .. count)`, with
   * `FIELD_COUNT` counts each in `counts`.
   * @returns whether a batch holds them (then {@link batchTermsOf} gives the slot's terms)
   */
  add(slot: number, terms: Int32Array, counts: Uint8Array, count: number): boolean {
    const pending = this.#pending;
    const documentFrequency = this.#documentFrequency;
    if (pending) {
      pending.appendAll(terms, counts, count);
      for (let local = 0; local < count; local++) documentFrequency[terms[local]!]!++;
      pending.endSlot(slot);
      return true;
    }
    for (let local = 0; local < count; local++) {
      const termId = terms[local]!;
      postingAppend(this.listOf(termId), slot, counts, local * FIELD_COUNT);
      documentFrequency[termId]!++;
    }
    return false;
  }

  /** The terms of a slot added in the current batch. */
  batchTermsOf(slot: number): Int32Array {
    return this.#pending!.termsOf(slot);
  }

  /** Takes a removed tool's terms out of the counts; its postings become dead. */
  remove(terms: Int32Array): void {
    const pending = this.#pending;
    for (const termId of terms) {
      this.#documentFrequency[termId]!--;
      // Pending postings of removed slots are dropped by the flush.
      if (!pending) this.listOf(termId).dead++;
    }
  }

  /** Renumbers the slots of every posting by `remap`, dropping those it maps to -1. */
  renumber(remap: Int32Array): void {
    for (let termId = 0; termId < this.#lists.length; termId++) {
      postingRenumber(this.listOf(termId), remap);
    }
  }

  /**
   * The distinct terms of each slot marked in `wanted`, which `remove` needs, read back from the
   * posting lists of the live slots: two passes, one to count, one to fill.
   */
  termsOfSlots(wanted: Uint8Array, alive: Uint8Array): Int32Array[] {
    const slotCount = wanted.length;
    const counts = new Int32Array(slotCount);
    const eachWanted = (visit: (termId: number, slot: number) => void): void => {
      for (let termId = 0; termId < this.#lists.length; termId++) {
        const posting = this.listOf(termId);
        for (let position = 0; position < posting.length; position++) {
          const slot = posting.slots[position]!;
          if (wanted[slot] === 1 && alive[slot] === 1) visit(termId, slot);
        }
      }
    };
    eachWanted((_termId, slot) => {
      counts[slot]!++;
    });
    const terms: Int32Array[] = new Array(slotCount);
    for (let slot = 0; slot < slotCount; slot++) {
      if (wanted[slot] === 1) terms[slot] = new Int32Array(counts[slot]!);
    }
    counts.fill(0);
    eachWanted((termId, slot) => {
      terms[slot]![counts[slot]!++] = termId;
    });
    return terms;
  }

  /**
   * Reads a snapshot's postings in place, for an empty store: nothing is done per term but
   * taking its document frequency from its offsets.
   */
  restore(snapshot: DecodedSnapshot): void {
    const terms = snapshot.terms.length;
    const capacity = Math.max(this.#documentFrequency.length, terms);
    this.#documentFrequency = new Int32Array(capacity);
    const offsets = snapshot.postingOffsets;
    for (let termId = 0; termId < terms; termId++) {
      this.#documentFrequency[termId] = offsets[termId + 1]! - offsets[termId]!;
    }
    this.#lists = new Array(terms);
    this.#restored = snapshot;
    this.#restoredTerms = terms;
  }
}
