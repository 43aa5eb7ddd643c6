import { forEachSchemaText, type ToolDescriptor } from './tool-descriptor';

/**
 * A tool's content hash: 64 bits over every text an index ranks the tool by, so a snapshot can
 * tell which of its tools a catalog has changed since it was written.
 *
 * What it covers is exactly what `TermCounter.count` reads, in the same order: the id, the
 * description (a missing one counts as `''`, as the index stores it), the input schema's texts as
 * `forEachSchemaText` visits them (property names, nested descriptions, titles and string enum
 * values, within the same budgets), and the string keywords. Schema keys the index does not read
 * (`type`, `required`...) are left out: changing them changes no ranking.
 *
 * It is built in two levels, so that an index being built hashes each distinct text once (its
 * text cache keeps the hash beside the text's terms) and then folds a few words per text:
 * - a text's hash: two lanes, each an FNV-1a step (Fowler, Noll and Vo) over 32-bit words of two
 *   UTF-16 code units with its own odd multiplier and a right xorshift (so high bits reach the low
 *   ones), then the length, then MurmurHash3's finalizer (Austin Appleby, SMHasher);
 * - the tool's hash: the same lanes over each text's two words and a word naming its field, then
 *   the finalizer, and the lanes mixed into each other.
 *
 * Every step is a bijection of its lane, so two tools whose texts differ in one text always
 * differ, unless that text's own 64-bit hashes collide. Not cryptographic: it detects a catalog
 * that changed, not a forger (who controls the tool text anyway).
 */

/** The words of a content hash: 64 bits, 8 bytes per tool in a snapshot. */
export const CONTENT_HASH_WORDS = 2;
/** FNV-1a's 32-bit offset basis and prime (http://www.isthe.com/chongo/tech/comp/fnv/). */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** The second lane: another odd multiplier (2^32 divided by the golden ratio) and seed. */
const GOLDEN_PRIME = 0x9e3779b1;
const SECOND_SEED = 0x6a09e667;
/** The fields, as `FIELD_NAMES` orders them (and `TermCounter` numbers them). */
const FIELD = { id: 0, description: 1, parameters: 2, parameterDescriptions: 3, keywords: 4 };

/**
 * Writes the hash of one text as two words, `into[at]` and `into[at + 1]`.
 * @param text - any string (lone surrogates included: code units are hashed)
 */
export function writeTextHash(text: string, into: Int32Array | Uint32Array, at: number): void {
  let a = FNV_OFFSET;
  let b = SECOND_SEED;
  const length = text.length;
  let position = 0;
  for (; position + 1 < length; position += 2) {
    const word = text.charCodeAt(position) | (text.charCodeAt(position + 1) << 16);
    a = Math.imul(a ^ word, FNV_PRIME);
    a ^= a >>> 16;
    b = Math.imul(b ^ word, GOLDEN_PRIME);
    b ^= b >>> 15;
  }
  // The last unit of an odd length; the length itself tells "a" from "a\0".
  const last = position < length ? text.charCodeAt(position) : 0;
  a = Math.imul(a ^ last, FNV_PRIME) ^ length;
  b = Math.imul(b ^ last, GOLDEN_PRIME) ^ length;
  into[at] = finalMix(a);
  into[at + 1] = finalMix(b);
}

/**
 * @internal Folds a tool's texts into its content hash, one text's hash at a time, in the order
 * the index reads them: {@link start}, then {@link add} per text, then {@link write}.
 */
export class ContentHashFold {
  #first = FNV_OFFSET;
  #second = SECOND_SEED;

  /** Starts a tool. */
  start(): void {
    this.#first = FNV_OFFSET;
    this.#second = SECOND_SEED;
  }

  /**
   * Folds in one text.
   * @param hash - the words {@link writeTextHash} wrote for the text, at `at`
   * @param field - the text's field, by its position in `FIELD_NAMES`
   */
  add(hash: Int32Array | Uint32Array, at: number, field: number): void {
    let a = Math.imul(this.#first ^ hash[at]!, FNV_PRIME);
    a ^= a >>> 16;
    a = Math.imul(a ^ field, FNV_PRIME);
    this.#first = a ^ (a >>> 16);
    let b = Math.imul(this.#second ^ hash[at + 1]!, GOLDEN_PRIME);
    b ^= b >>> 15;
    b = Math.imul(b ^ field, GOLDEN_PRIME);
    this.#second = b ^ (b >>> 15);
  }

  /** Writes the tool's hash as two words, `into[at]` and `into[at + 1]`. */
  write(into: Uint32Array, at: number): void {
    let a = finalMix(this.#first);
    let b = finalMix(this.#second);
    a = (a + b) | 0;
    b = (b + a) | 0;
    into[at] = a;
    into[at + 1] = b;
  }
}

/** Scratch for {@link writeToolContentHash}: one fold and one text's hash. */
const fold = new ContentHashFold();
const textHash = new Uint32Array(CONTENT_HASH_WORDS);

function addText(text: string, field: number): void {
  writeTextHash(text, textHash, 0);
  fold.add(textHash, 0, field);
}

const addSchemaText = (text: string, isName: boolean): void => {
  addText(text, isName ? FIELD.parameters : FIELD.parameterDescriptions);
};

/**
 * Writes a tool's content hash (see above) as two words, `into[at]` and `into[at + 1]`: the same
 * words an index computes while it counts the tool's terms.
 * @param tool - the tool as the index reads it
 */
export function writeToolContentHash(tool: ToolDescriptor, into: Uint32Array, at: number): void {
  fold.start();
  addText(tool.id, FIELD.id);
  addText(typeof tool.description === 'string' ? tool.description : '', FIELD.description);
  forEachSchemaText(tool.inputSchema, addSchemaText);
  if (Array.isArray(tool.keywords)) {
    for (const keyword of tool.keywords) {
      if (typeof keyword === 'string') addText(keyword, FIELD.keywords);
    }
  }
  fold.write(into, at);
}

/**
 * @internal MurmurHash3's 32-bit finalizer (Austin Appleby, SMHasher): every input bit affects
 * every output bit. The embeddings' content hash uses it too.
 */
export function finalMix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
