import type { TextTermCache } from './text-term-cache';
import { CONTENT_HASH_WORDS, ContentHashFold } from './tool-content-hash';
import { forEachSchemaText, type ToolDescriptor } from './tool-descriptor';
import { FIELD_COUNT } from './tool-index-options';

/** Term frequencies are counted up to this per field; more repeats add nothing to BM25 anyway. */
const MAX_TERM_FREQUENCY = 255;
/** Initial room, in term ids, of the arrays indexed by term id (they double with the dictionary). */
const INITIAL_TERM_CAPACITY = 64;
/** Initial room for the distinct terms of one tool. */
const INITIAL_TOOL_TERMS = 256;
/** The fields, by position in a posting's counts (see `FIELD_NAMES`). */
const FIELD = {
  id: 0,
  description: 1,
  parameters: 2,
  parameterDescriptions: 3,
  keywords: 4,
} as const;

/**
 * @internal Counts the terms of one tool at a time, field by field: its distinct terms, how often
 * each occurs in each field, and each field's length. Each text is counted as it is found: no
 * list of the tool's texts or terms is built. The arrays are reused from tool to tool.
 */
export class TermCounter {
  readonly #texts: TextTermCache;
  /** Per term id: the count that last saw it, and its position among that tool's terms. */
  #seenAt = new Int32Array(INITIAL_TERM_CAPACITY);
  #localIndex = new Int32Array(INITIAL_TERM_CAPACITY);
  #terms = new Int32Array(INITIAL_TOOL_TERMS);
  #counts = new Uint8Array(INITIAL_TOOL_TERMS * FIELD_COUNT);
  #stamp = 0;
  #distinct = 0;
  /** Term occurrences per field of the tool counted last. */
  readonly lengths = new Uint32Array(FIELD_COUNT);
  /** The content hash (see `tool-content-hash.ts`) of the tool counted last. */
  readonly contentHash = new Uint32Array(CONTENT_HASH_WORDS);
  readonly #fold = new ContentHashFold();

  /** @param texts - where a text's term ids come from */
  constructor(texts: TextTermCache) {
    this.#texts = texts;
  }

  /** The distinct term ids of the tool counted last: the first {@link distinct} entries. */
  get terms(): Int32Array {
    return this.#terms;
  }

  /** Per distinct term of the tool counted last, its count in each field (`FIELD_COUNT` each). */
  get counts(): Uint8Array {
    return this.#counts;
  }

  /** How many distinct terms the tool counted last has. */
  get distinct(): number {
    return this.#distinct;
  }

  /** Makes room for term ids below `terms` (called as the dictionary grows). */
  reserveTerms(terms: number): void {
    if (terms <= this.#seenAt.length) return;
    let capacity = this.#seenAt.length;
    while (capacity < terms) capacity *= 2;
    this.#seenAt = grownInt32(this.#seenAt, capacity);
    this.#localIndex = grownInt32(this.#localIndex, capacity);
  }

  /** Sizes the arrays for the term ids of a restored index, once and exactly. */
  restoreTerms(terms: number): void {
    const capacity = Math.max(this.#seenAt.length, terms);
    this.#seenAt = new Int32Array(capacity);
    this.#localIndex = new Int32Array(capacity);
  }

  /**
   * Counts a tool's terms: its id's words, description, parameter texts and keywords; and folds
   * the texts' hashes into its content hash, in the order `writeToolContentHash` reads them.
   */
  count(tool: ToolDescriptor): void {
    this.#stamp++;
    this.#distinct = 0;
    this.lengths.fill(0);
    this.#fold.start();
    this.#countText(tool.id, FIELD.id, false);
    // A missing description counts as '' (no terms): the content hash covers it the same way.
    const description = typeof tool.description === 'string' ? tool.description : '';
    this.#countText(description, FIELD.description, true);
    forEachSchemaText(tool.inputSchema, this.#countSchemaText);
    if (Array.isArray(tool.keywords)) {
      for (const keyword of tool.keywords) {
        if (typeof keyword === 'string') this.#countText(keyword, FIELD.keywords, true);
      }
    }
    this.#fold.write(this.contentHash, 0);
  }

  /** Counts a schema text (bound once: it is called for every text). */
  readonly #countSchemaText = (text: string, isName: boolean): void => {
    this.#countText(text, isName ? FIELD.parameters : FIELD.parameterDescriptions, true);
  };

  #countText(text: string, field: number, cacheable: boolean): void {
    const start = this.#texts.termIdsOf(text, cacheable);
    const termIds = this.#texts.pool;
    this.#fold.add(termIds, start - CONTENT_HASH_WORDS, field);
    const occurrences = termIds[start]!;
    this.lengths[field]! += occurrences;
    // Read after termIdsOf: interning new terms may have grown these arrays.
    const seenAt = this.#seenAt;
    const localIndex = this.#localIndex;
    const stamp = this.#stamp;
    let distinct = this.#distinct;
    // A text adds at most `occurrences` new terms.
    if (distinct + occurrences > this.#terms.length) this.#growTerms(distinct + occurrences);
    const localTerms = this.#terms;
    const localCounts = this.#counts;
    for (let position = start + 1; position <= start + occurrences; position++) {
      const termId = termIds[position]!;
      let local: number;
      if (seenAt[termId] === stamp) {
        local = localIndex[termId]!;
      } else {
        seenAt[termId] = stamp;
        local = distinct++;
        localIndex[termId] = local;
        localTerms[local] = termId;
        const base = local * FIELD_COUNT;
        for (let other = 0; other < FIELD_COUNT; other++) localCounts[base + other] = 0;
      }
      const at = local * FIELD_COUNT + field;
      if (localCounts[at]! < MAX_TERM_FREQUENCY) localCounts[at]!++;
    }
    this.#distinct = distinct;
  }

  /** Makes room for `terms` distinct terms in the tool being counted, keeping those counted so far. */
  #growTerms(terms: number): void {
    let capacity = this.#terms.length;
    while (capacity < terms) capacity *= 2;
    const localTerms = new Int32Array(capacity);
    localTerms.set(this.#terms);
    this.#terms = localTerms;
    const localCounts = new Uint8Array(capacity * FIELD_COUNT);
    localCounts.set(this.#counts);
    this.#counts = localCounts;
  }
}

function grownInt32(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}
