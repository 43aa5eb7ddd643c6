import type { TermDictionary } from './term-dictionary';
import { type TermScanner, type TermSink, type Tokenizer, termScannerOf } from './tokenizer';
import { CONTENT_HASH_WORDS, writeTextHash } from './tool-content-hash';
import { WordTable } from './word-table';

/** Initial size of the block the cached texts' term ids are written to (256 kB). */
const TERM_POOL_SIZE = 65_536;
/** Distinct texts whose term ids are remembered; past it the cache starts over. */
const MAX_CACHED_TEXTS = 50_000;

/**
 * @internal The term ids of the texts of tools being added. Texts repeat across a catalog
 * (parameter names such as "limit", descriptions such as "The ID of the repository"), so each
 * distinct text is analyzed once; the cache is bounded and term ids never change, so an entry
 * never goes stale.
 *
 * With the default tokenizer, terms come from its scan one by one, never as an array of strings:
 * ASCII words through a {@link WordTable}, Han bigrams straight into the dictionary. Each text's
 * hash (`writeTextHash`) is kept before its term ids, so a tool's content hash costs a few words
 * per text it repeats.
 */
export class TextTermCache {
  readonly #terms: TermDictionary;
  readonly #tokenize: Tokenizer;
  /** The default tokenizer's scan, when it is the tokenizer. */
  readonly #scan: TermScanner | undefined;
  readonly #words: WordTable;
  /** Cached texts: where their term ids are in `#pool`. */
  readonly #cache = new Map<string, number>();
  /** Per cached text: its hash (`CONTENT_HASH_WORDS`), the count of its term ids, the ids; grown by doubling. */
  #pool = new Int32Array(0);
  #poolUsed = 0;
  /** Where the text being analyzed writes its term ids: after `#pool[#textStart]`, `#textTerms` so far. */
  #textStart = 0;
  #textTerms = 0;
  readonly #sink: TermSink = {
    term: (term) => this.#write(this.#terms.intern(term)),
    hanBigram: (text, at) => this.#write(this.#terms.internBigram(text, at)),
    word: (text, start, end, analyze) => {
      const at = this.#words.termsOf(text, start, end, analyze);
      const wordPool = this.#words.pool;
      const count = wordPool[at]!;
      for (let position = at + 1; position <= at + count; position++) {
        this.#write(wordPool[position]!);
      }
    },
  };

  /**
   * @param terms - the dictionary terms are interned in
   * @param tokenize - the index's tokenizer
   */
  constructor(terms: TermDictionary, tokenize: Tokenizer) {
    this.#terms = terms;
    this.#tokenize = tokenize;
    this.#scan = termScannerOf(tokenize);
    this.#words = new WordTable(terms);
  }

  /**
   * The term ids: read at the position {@link termIdsOf} returns, their count first; the text's
   * hash is the `CONTENT_HASH_WORDS` words before that position.
   */
  get pool(): Int32Array {
    return this.#pool;
  }

  /**
   * The term ids of a text, as the position in {@link pool} of their count, followed by them.
   * A text that is not `cacheable` (an id, seen once) is written past the pool's end, where the
   * next text overwrites it.
   */
  termIdsOf(text: string, cacheable: boolean): number {
    if (cacheable) {
      const cached = this.#cache.get(text);
      if (cached !== undefined) return cached;
    }
    if (cacheable && this.#cache.size >= MAX_CACHED_TEXTS) {
      this.#cache.clear();
      this.#poolUsed = 0;
    }
    const start = this.#poolUsed + CONTENT_HASH_WORDS;
    this.#textStart = start;
    this.#textTerms = 0;
    const scan = this.#scan;
    if (scan) {
      scan(text, this.#sink);
    } else {
      // Interning never touches the pool: the ids go straight to their place.
      for (const term of this.#tokenize(text)) this.#write(this.#terms.intern(term));
    }
    this.#reserve(start + 1);
    this.#pool[start] = this.#textTerms;
    writeTextHash(text, this.#pool, start - CONTENT_HASH_WORDS);
    if (cacheable) {
      this.#cache.set(text, start);
      this.#poolUsed = start + this.#textTerms + 1;
    }
    return start;
  }

  /** Frees the word table: after a batch, later adds are few and not worth its memory. */
  dropWords(): void {
    this.#words.clear();
  }

  /** Writes the next term id of the text being analyzed. */
  #write(termId: number): void {
    const at = this.#textStart + 1 + this.#textTerms++;
    if (at >= this.#pool.length) this.#reserve(at + 1);
    this.#pool[at] = termId;
  }

  /** Grows `#pool` to at least `size` entries, keeping what it holds. */
  #reserve(size: number): void {
    if (size <= this.#pool.length) return;
    let capacity = Math.max(TERM_POOL_SIZE, this.#pool.length);
    while (capacity < size) capacity *= 2;
    const pool = new Int32Array(capacity);
    pool.set(this.#pool);
    this.#pool = pool;
  }
}
