import type { ParsedQuery } from './parsed-query';
import type { PostingList } from './posting-list';
import { postingCompact } from './posting-list';
import type { PostingStore } from './posting-store';
import type { Candidate } from './search-indexes';
import type { SlotTable } from './slot-table';
import type { TermDictionary } from './term-dictionary';
import { FIELD_COUNT, type IndexSettings } from './tool-index-options';
import type { TopK } from './top-k';

/** What {@link Bm25fScorer.collect} keeps: a minimum score, a filter, and the best so far. */
export interface CollectOptions {
  minScore: number;
  filter: ((id: string) => boolean) | undefined;
  top: TopK<Candidate>;
}

/**
 * @internal Scores an index's tools for a query: BM25F over the fields, plus the ID boosts.
 *
 * Scoring is BM25F as in S. Robertson, H. Zaragoza and M. Taylor, "Simple BM25 extension to
 * multiple weighted fields" (CIKM 2004): per-field term frequencies are length-normalized
 * (`tf_f / (1 - b_f + b_f · len_f / avglen_f)`), weighted and summed into one pseudo-frequency
 * `tf~`, and a term scores `idf · tf~ / (k1 + tf~)`. The idf comes from the caller
 * (`searchIndexes`), which may sum document frequencies over several indexes.
 *
 * Each posting list caches `tf~ / (k1 + tf~)` and the ID-word boost per posting, valid while the
 * list's epoch is the slot table's: a search then costs one multiply and one add per posting.
 */
export class Bm25fScorer {
  readonly #settings: IndexSettings;
  readonly #slots: SlotTable;
  readonly #postings: PostingStore;
  readonly #terms: TermDictionary;
  /** Scores by slot, 0 between searches; `#touched` lists the slots a search made non-zero. */
  #scores = new Float64Array(0);
  #touched = new Int32Array(0);
  /** A search is running: a filter that searches the same index gets arrays of its own. */
  #scoring = false;

  constructor(parts: {
    settings: IndexSettings;
    slots: SlotTable;
    postings: PostingStore;
    terms: TermDictionary;
  }) {
    this.#settings = parts.settings;
    this.#slots = parts.slots;
    this.#postings = parts.postings;
    this.#terms = parts.terms;
    this.resize(parts.slots.capacity);
  }

  /** Sizes the score arrays for `capacity` slots (as the slot table grows). */
  resize(capacity: number): void {
    this.#scores = new Float64Array(capacity);
    this.#touched = new Int32Array(capacity);
  }

  /**
   * Scores the tools for a parsed query with the given idf per term and feeds the passing ones
   * to `options.top`.
   */
  collect(query: ParsedQuery, idf: readonly number[], options: CollectOptions): void {
    const slots = this.#slots;
    const reentrant = this.#scoring;
    const scores = reentrant ? new Float64Array(slots.count) : this.#scores;
    const touched = reentrant ? new Int32Array(slots.count) : this.#touched;
    this.#scoring = true;
    try {
      let touchedCount = 0;
      for (let index = 0; index < query.terms.length; index++) {
        const termId = this.#terms.idOf(query.terms[index]!);
        if (termId === undefined || this.#postings.documentFrequency(termId) === 0) continue;
        touchedCount = this.#scoreTerm(termId, idf[index]!, scores, touched, touchedCount);
      }
      if (this.#settings.exactBoost !== 0) {
        touchedCount = this.#boostExactMatches(query.exactKeys, scores, touched, touchedCount);
      }
      const { minScore, filter, top } = options;
      // Most candidates score below the current k-th best: compare numbers before touching ids.
      let threshold = top.threshold();
      for (let position = 0; position < touchedCount; position++) {
        const slot = touched[position]!;
        const score = scores[slot]!;
        scores[slot] = 0;
        if (!(score > minScore) || score < threshold) continue;
        const id = slots.idAt(slot);
        if (!top.accepts(score, id)) continue;
        if (filter && !passes(filter, id)) continue;
        top.push({ id, score, slot });
        threshold = top.threshold();
      }
    } finally {
      if (!reentrant) this.#scoring = false;
    }
  }

  /** Adds one term's contribution to `scores`; returns the new count of touched slots. */
  #scoreTerm(
    termId: number,
    idf: number,
    scores: Float64Array,
    touched: Int32Array,
    touchedCount: number,
  ): number {
    const alive = this.#slots.alive;
    const posting = this.#postings.listOf(termId);
    if (posting.dead > posting.length / 2) postingCompact(posting, alive);
    if (posting.epoch !== this.#slots.epoch) this.#weigh(posting);
    const { slots, weights, bonuses, length } = posting;
    let count = touchedCount;
    if (posting.dead === 0) {
      for (let position = 0; position < length; position++) {
        const slot = slots[position]!;
        if (scores[slot] === 0) touched[count++] = slot;
        scores[slot]! += idf * weights[position]! + bonuses[position]!;
      }
      return count;
    }
    for (let position = 0; position < length; position++) {
      const slot = slots[position]!;
      if (alive[slot] === 0) continue;
      if (scores[slot] === 0) touched[count++] = slot;
      scores[slot]! += idf * weights[position]! + bonuses[position]!;
    }
    return count;
  }

  /**
   * Adds the exact-id boost to the tools whose exact-match key is one of `keys`; returns the new
   * count of touched slots. (A method of its own: the closure would otherwise capture `collect`'s
   * locals, which its loops read.)
   */
  #boostExactMatches(
    keys: readonly string[],
    scores: Float64Array,
    touched: Int32Array,
    touchedCount: number,
  ): number {
    const boost = this.#settings.exactBoost;
    let count = touchedCount;
    const visit = (slot: number): void => {
      if (scores[slot] === 0) touched[count++] = slot;
      scores[slot]! += boost;
    };
    for (const key of keys) this.#slots.forEachExactMatch(key, visit);
    return count;
  }

  /** Recomputes a posting list's saturated pseudo-frequencies for the current average lengths. */
  #weigh(posting: PostingList): void {
    const { fieldWeights, fieldB, k1, wordBoost } = this.#settings;
    const { fieldLengths, fieldLengthSums, liveCount } = this.#slots;
    const averages = new Float64Array(FIELD_COUNT);
    for (let field = 0; field < FIELD_COUNT; field++) {
      averages[field] = liveCount > 0 ? fieldLengthSums[field]! / liveCount : 0;
    }
    if (posting.weights.length < posting.length) {
      posting.weights = new Float32Array(posting.slots.length);
      posting.bonuses = new Float32Array(posting.slots.length);
    }
    const { slots, weights, bonuses, frequencies } = posting;
    for (let position = 0; position < posting.length; position++) {
      const slot = slots[position]!;
      let weight = 0;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const frequency = frequencies[position * FIELD_COUNT + field]!;
        if (frequency === 0) continue;
        const average = averages[field]!;
        const b = fieldB[field]!;
        const length = fieldLengths[slot * FIELD_COUNT + field]!;
        const norm = average > 0 ? 1 - b + (b * length) / average : 1;
        weight += (fieldWeights[field]! * frequency) / norm;
      }
      // Cache the saturated frequency tf~ / (k1 + tf~): a search then costs one multiply by idf.
      weights[position] = weight / (k1 + weight);
      // ID-word boost: the term is one of the id's words (field 0 holds the id's words).
      bonuses[position] = frequencies[position * FIELD_COUNT]! > 0 ? wordBoost : 0;
    }
    posting.epoch = this.#slots.epoch;
  }
}

function passes(filter: (id: string) => boolean, id: string): boolean {
  try {
    return filter(id) === true;
  } catch {
    return false;
  }
}
