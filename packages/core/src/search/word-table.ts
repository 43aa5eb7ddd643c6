import { stringHash } from './snapshot-strings';
import type { TermDictionary } from './term-dictionary';

/** Distinct words whose term ids are kept; the table starts over past this. */
const MAX_CACHED_WORDS = 50_000;
/** Initial size of the hash table, in entries (it grows at half full). */
const INITIAL_TABLE_SIZE = 1024;
/** Initial size of the block the words' term ids are written to, in entries. */
const INITIAL_POOL_SIZE = 4096;

/**
 * @internal The term ids of ASCII words, by their characters: ids and parameter names are made of
 * a few thousand words, each read many times, and finding one here takes no string and no map.
 *
 * Open addressing on the word's {@link stringHash}: `#slots` holds 1 + the word's number in
 * `#words` (0 is empty); the word's term ids are at `#starts[number]` in {@link WordTable.pool},
 * after their count.
 */
export class WordTable {
  readonly #terms: TermDictionary;
  #hashes = new Int32Array(0);
  #slots = new Int32Array(0);
  #words: string[] = [];
  #starts: number[] = [];
  #pool = new Int32Array(0);
  #poolUsed = 0;

  /** @param terms - the dictionary a new word's terms are interned in */
  constructor(terms: TermDictionary) {
    this.#terms = terms;
  }

  /** The words' term ids, each list after its length: read at the position {@link termsOf} returns. */
  get pool(): Int32Array {
    return this.#pool;
  }

  /**
   * Where the term ids of the word `text[start .. end)` are in {@link pool}: found by its
   * characters, or analyzed by `analyze` and interned on first sight.
   */
  termsOf(
    text: string,
    start: number,
    end: number,
    analyze: (word: string) => readonly string[],
  ): number {
    // As a signed 32-bit integer, the table's type; never 0, which marks an empty place.
    const hash = stringHash(text, start, end) | 0 || 1;
    let hashes = this.#hashes;
    let mask = hashes.length - 1;
    let probe = hash & mask;
    const length = end - start;
    while (mask >= 0) {
      const found = hashes[probe]!;
      if (found === 0) break;
      if (found === hash) {
        const number = this.#slots[probe]! - 1;
        const word = this.#words[number]!;
        if (word.length === length && text.startsWith(word, start)) return this.#starts[number]!;
      }
      probe = (probe + 1) & mask;
    }
    const word = text.slice(start, end);
    const terms = analyze(word);
    if (this.#words.length >= MAX_CACHED_WORDS) this.clear();
    if ((this.#words.length + 1) * 2 > hashes.length) {
      this.#grow();
      hashes = this.#hashes;
      mask = hashes.length - 1;
      probe = hash & mask;
      while (hashes[probe] !== 0) probe = (probe + 1) & mask;
    }
    const at = this.#poolUsed;
    if (at + terms.length + 1 > this.#pool.length) {
      let capacity = Math.max(INITIAL_POOL_SIZE, this.#pool.length);
      while (capacity < at + terms.length + 1) capacity *= 2;
      const pool = new Int32Array(capacity);
      pool.set(this.#pool);
      this.#pool = pool;
    }
    const pool = this.#pool;
    pool[at] = terms.length;
    for (let position = 0; position < terms.length; position++) {
      pool[at + 1 + position] = this.#terms.intern(terms[position]!);
    }
    this.#poolUsed = at + terms.length + 1;
    hashes[probe] = hash;
    this.#slots[probe] = this.#words.length + 1;
    this.#words.push(word);
    this.#starts.push(at);
    return at;
  }

  /** Forgets every word and frees the table's memory. */
  clear(): void {
    this.#hashes = new Int32Array(0);
    this.#slots = new Int32Array(0);
    this.#words = [];
    this.#starts = [];
    this.#pool = new Int32Array(0);
    this.#poolUsed = 0;
  }

  #grow(): void {
    const capacity = Math.max(INITIAL_TABLE_SIZE, this.#hashes.length * 2);
    const hashes = new Int32Array(capacity);
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let at = 0; at < this.#hashes.length; at++) {
      const hash = this.#hashes[at]!;
      if (hash === 0) continue;
      let probe = hash & mask;
      while (hashes[probe] !== 0) probe = (probe + 1) & mask;
      hashes[probe] = hash;
      slots[probe] = this.#slots[at]!;
    }
    this.#hashes = hashes;
    this.#slots = slots;
  }
}
