import type { SnapshotStrings } from './snapshot-strings';

/** Told of each new term id, so that arrays indexed by term id grow with the dictionary. */
export type NewTermListener = (termId: number) => void;

/** Initial size of the Han-bigram table, in entries (it grows at half full). */
const INITIAL_BIGRAM_CAPACITY = 4096;

/**
 * @internal The terms of an index, each with a dense integer id (0, 1, 2... in the order they
 * were first seen; a restored index's terms keep the snapshot's ids). Ids never change, so
 * anything may remember them.
 *
 * Han bigrams (two CJK Unified Ideographs) are kept apart from other terms, in an open-addressing
 * table keyed by {@link bigramKey}: a Chinese catalog has tens of thousands of them, each seen many
 * times, and they are found without making a string. A restored index's own terms stay in the
 * snapshot, found through its lookup table: only the terms seen since are kept here.
 */
export class TermDictionary {
  readonly #termIds = new Map<string, number>();
  /** The bigram table: keys (0 is empty) and their term ids, at the same place. */
  #bigramKeys = new Int32Array(0);
  #bigramTerms = new Int32Array(0);
  #bigramCount = 0;
  /** The snapshot's terms, by id, of a restored index. */
  #restored: SnapshotStrings | undefined;
  /** Term ids below this are the snapshot's. */
  #restoredCount = 0;
  #size = 0;
  readonly #onNewTerm: NewTermListener;

  /** @param onNewTerm - told of each new term id, in order */
  constructor(onNewTerm: NewTermListener) {
    this.#onNewTerm = onNewTerm;
  }

  /** How many term ids were handed out: ids are `0 .. size - 1`. */
  get size(): number {
    return this.#size;
  }

  /**
   * Takes a snapshot's terms as ids `0 .. terms.length - 1`, read in place. Only for an empty
   * dictionary; the listener is not told of them (the restore sizes its arrays itself).
   */
  restore(terms: SnapshotStrings): void {
    this.#restored = terms;
    this.#restoredCount = terms.length;
    this.#size = terms.length;
  }

  /** The id of a term, or `undefined` when no tool ever had it. */
  idOf(term: string): number | undefined {
    const key = bigramKeyOf(term);
    let termId: number | undefined;
    if (key === 0) {
      termId = this.#termIds.get(term);
    } else {
      const probe = this.#bigramProbe(key);
      if (this.#bigramKeys[probe] === key) termId = this.#bigramTerms[probe];
    }
    if (termId !== undefined || this.#restoredCount === 0) return termId;
    const restored = this.#restored!.indexOf(term);
    return restored < 0 ? undefined : restored;
  }

  /** The id of a term, given one on first sight. */
  intern(term: string): number {
    const key = bigramKeyOf(term);
    if (key !== 0) {
      const probe = this.#bigramProbe(key);
      if (this.#bigramKeys[probe] === key) return this.#bigramTerms[probe]!;
      return this.#addBigram(key, probe, term);
    }
    let termId = this.#termIds.get(term);
    if (termId === undefined && this.#restoredCount > 0) {
      const restored = this.#restored!.indexOf(term);
      if (restored >= 0) termId = restored;
    }
    if (termId === undefined) {
      termId = this.#newTerm();
      this.#termIds.set(term, termId);
    }
    return termId;
  }

  /** The id of the Han bigram at `text[at]`, given one on first sight. */
  internBigram(text: string, at: number): number {
    const key = bigramKey(text.charCodeAt(at), text.charCodeAt(at + 1));
    const probe = this.#bigramProbe(key);
    const found = this.#bigramTerms[probe]!;
    if (this.#bigramKeys[probe] === key) return found;
    return this.#addBigram(key, probe, text.slice(at, at + 2));
  }

  /** Every term, by id. */
  terms(): string[] {
    const terms: string[] = new Array(this.#size);
    for (let termId = 0; termId < this.#restoredCount; termId++) {
      terms[termId] = this.#restored!.at(termId);
    }
    for (const [term, termId] of this.#termIds) terms[termId] = term;
    for (let at = 0; at < this.#bigramKeys.length; at++) {
      const key = this.#bigramKeys[at]!;
      if (key !== 0) terms[this.#bigramTerms[at]!] = bigramOf(key);
    }
    return terms;
  }

  /** Whether some term other than a Han bigram passes `test`. */
  someWord(test: (term: string) => boolean): boolean {
    for (let termId = 0; termId < this.#restoredCount; termId++) {
      if (test(this.#restored!.at(termId))) return true;
    }
    for (const term of this.#termIds.keys()) if (test(term)) return true;
    return false;
  }

  #newTerm(): number {
    const termId = this.#size++;
    this.#onNewTerm(termId);
    return termId;
  }

  /**
   * Where the bigram `key` is in the table, or the empty place it would take. The table is
   * never full: it grows at half.
   */
  #bigramProbe(key: number): number {
    const keys = this.#bigramKeys;
    const mask = keys.length - 1;
    if (mask < 0) return 0;
    let probe = Math.imul(key, 0x9e3779b1) & mask;
    for (;;) {
      const found = keys[probe]!;
      if (found === key || found === 0) return probe;
      probe = (probe + 1) & mask;
    }
  }

  /** Gives the bigram `key` (the string `term`) its term id: the restored one, or a new one. */
  #addBigram(key: number, probe: number, term: string): number {
    const restored = this.#restoredCount > 0 ? this.#restored!.indexOf(term) : -1;
    const termId = restored >= 0 ? restored : this.#newTerm();
    let at = probe;
    if ((this.#bigramCount + 1) * 2 > this.#bigramKeys.length) {
      this.#growBigrams();
      at = this.#bigramProbe(key);
    }
    this.#bigramKeys[at] = key;
    this.#bigramTerms[at] = termId;
    this.#bigramCount++;
    return termId;
  }

  #growBigrams(): void {
    const oldKeys = this.#bigramKeys;
    const oldTerms = this.#bigramTerms;
    const capacity = Math.max(INITIAL_BIGRAM_CAPACITY, oldKeys.length * 2);
    this.#bigramKeys = new Int32Array(capacity);
    this.#bigramTerms = new Int32Array(capacity);
    for (let at = 0; at < oldKeys.length; at++) {
      const key = oldKeys[at]!;
      if (key === 0) continue;
      const probe = this.#bigramProbe(key);
      this.#bigramKeys[probe] = key;
      this.#bigramTerms[probe] = oldTerms[at]!;
    }
  }
}

/** The first CJK Unified Ideograph, and how many there are in the block (U+4E00..U+9FFF). */
const HAN_FIRST = 0x4e00;
const HAN_COUNT = 0x5200;

/** The key of the bigram of two CJK Unified Ideographs: a small integer (at most 0x5200²), never 0. */
function bigramKey(first: number, second: number): number {
  return (first - HAN_FIRST) * HAN_COUNT + (second - HAN_FIRST) + 1;
}

/** The {@link bigramKey} of a term, or 0 when it is not two CJK Unified Ideographs. */
function bigramKeyOf(term: string): number {
  if (term.length !== 2) return 0;
  const first = term.charCodeAt(0);
  const second = term.charCodeAt(1);
  return isHanCode(first) && isHanCode(second) ? bigramKey(first, second) : 0;
}

/** The bigram a {@link bigramKey} stands for. */
function bigramOf(key: number): string {
  const index = key - 1;
  return String.fromCharCode(
    HAN_FIRST + Math.floor(index / HAN_COUNT),
    HAN_FIRST + (index % HAN_COUNT),
  );
}

function isHanCode(code: number): boolean {
  return code >= HAN_FIRST && code < HAN_FIRST + HAN_COUNT;
}
