/** How a snapshot stores text: UTF-8, or UTF-16 when some string holds a lone surrogate. */
export type TextEncoding = 'utf-8' | 'utf-16';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Lookup tables are kept at most half full, so a probe for a missing string ends quickly. */
const TABLE_LOAD = 2;
/** Code units per `String.fromCharCode` call when text is stored as UTF-16. */
const UTF16_CHUNK = 8_192;

/** Lenient on purpose: a snapshot's checksum has vouched for the bytes before any is decoded. */
const utf8 = new TextDecoder('utf-8');

/**
 * 32-bit FNV-1a over UTF-16 code units (Fowler, Noll and Vo): the hash a snapshot's lookup
 * tables are keyed by, computed the same way when they are written and when they are probed.
 * `start` and `end` hash a part of the text without copying it.
 */
export function stringHash(text: string, start = 0, end = text.length): number {
  let hash = FNV_OFFSET;
  for (let position = start; position < end; position++) {
    hash = Math.imul(hash ^ text.charCodeAt(position), FNV_PRIME);
  }
  return hash >>> 0;
}

/** The size of the lookup table for `count` strings: a power of two at least twice the count. */
export function lookupTableSize(count: number): number {
  let size = 1;
  while (size < count * TABLE_LOAD) size *= 2;
  return size;
}

/**
 * An open-addressing (linear probing) table of strings by {@link stringHash}: each entry is a
 * string's position plus one, `0` is empty. Equal strings may appear more than once.
 */
export function buildLookupTable(strings: readonly string[]): Uint32Array {
  const table = new Uint32Array(lookupTableSize(strings.length));
  const mask = table.length - 1;
  for (let position = 0; position < strings.length; position++) {
    let at = stringHash(strings[position]!) & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = position + 1;
  }
  return table;
}

/** Encodes strings as one block of bytes plus each one's byte offset (one more than strings). */
export function encodeStrings(
  strings: readonly string[],
  encoding: TextEncoding,
): { bytes: Uint8Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(strings.length + 1);
  if (encoding === 'utf-16') {
    let units = 0;
    for (let position = 0; position < strings.length; position++) {
      units += strings[position]!.length;
      offsets[position + 1] = units * 2;
    }
    const text = new Uint16Array(units);
    let at = 0;
    for (const string of strings) {
      for (let unit = 0; unit < string.length; unit++) text[at++] = string.charCodeAt(unit);
    }
    return { bytes: new Uint8Array(text.buffer), offsets };
  }
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let position = 0; position < strings.length; position++) {
    const part = encoder.encode(strings[position]);
    parts.push(part);
    total += part.length;
    offsets[position + 1] = total;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, offsets };
}

/** The encoding that carries every one of these strings exactly. */
export function encodingFor(strings: readonly string[]): TextEncoding {
  for (const string of strings) if (!isWellFormed(string)) return 'utf-16';
  return 'utf-8';
}

/** Decodes the bytes of one string. */
export function decodeString(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'utf-8') return utf8.decode(bytes);
  // Copied, so the code units are aligned whatever the offset (and an odd byte is dropped).
  const units = new Uint16Array(new Uint8Array(bytes).buffer, 0, bytes.length >> 1);
  let text = '';
  for (let start = 0; start < units.length; start += UTF16_CHUNK) {
    text += String.fromCharCode(...units.subarray(start, start + UTF16_CHUNK));
  }
  return text;
}

/**
 * Strings of a snapshot, read in place: each is decoded the first time it is asked for, and
 * found by its lookup table, so a restore costs nothing per string.
 */
export class SnapshotStrings {
  readonly length: number;
  readonly #bytes: Uint8Array;
  readonly #offsets: Uint32Array;
  readonly #encoding: TextEncoding;
  readonly #table: Uint32Array;
  /** Allocated at the first string asked for (`new Array(n)` keeps fast elements at any size). */
  #decoded: (string | undefined)[] | undefined;

  /**
   * @param bytes - the encoded strings, one after another
   * @param offsets - each string's start in `bytes`, plus the end: ascending, within `bytes`
   * @param encoding - how `bytes` are encoded
   * @param table - the strings' lookup table (see {@link buildLookupTable}), entries at most `offsets.length - 1`
   */
  constructor(bytes: Uint8Array, offsets: Uint32Array, encoding: TextEncoding, table: Uint32Array) {
    this.length = offsets.length - 1;
    this.#bytes = bytes;
    this.#offsets = offsets;
    this.#encoding = encoding;
    this.#table = table;
  }

  /** The string at a position (`0 <= position < length`). */
  at(position: number): string {
    this.#decoded ??= new Array(this.length);
    let string = this.#decoded[position];
    if (string === undefined) {
      string = decodeString(
        this.#bytes.subarray(this.#offsets[position]!, this.#offsets[position + 1]!),
        this.#encoding,
      );
      this.#decoded[position] = string;
    }
    return string;
  }

  /**
   * Whether the string at a position (`0 <= position < length`) is `text`. Plain ASCII is
   * compared with the bytes in place, so a lookup decodes nothing (most ids and terms are ASCII);
   * other text is decoded as {@link at} does.
   */
  equalsAt(position: number, text: string): boolean {
    const decoded = this.#decoded?.[position];
    if (decoded !== undefined) return decoded === text;
    if (this.#encoding !== 'utf-8') return this.at(position) === text;
    const start = this.#offsets[position]!;
    const length = this.#offsets[position + 1]! - start;
    // UTF-8 takes at least one byte per UTF-16 code unit: a shorter string cannot be `text`.
    if (length < text.length) return false;
    const bytes = this.#bytes;
    for (let unit = 0; unit < text.length; unit++) {
      const code = text.charCodeAt(unit);
      if (code >= 0x80) return this.at(position) === text;
      // The units so far were ASCII, one byte each: this byte starts the stored unit here.
      if (bytes[start + unit] !== code) return false;
    }
    // ASCII text takes one byte per unit, so only a stored string of the same length is it.
    return length === text.length;
  }

  /** The first position holding `text`, or `-1`. */
  indexOf(text: string): number {
    let found = -1;
    this.forEachIndex(text, (position) => {
      found = position;
      return false;
    });
    return found;
  }

  /**
   * Calls `visit` with each position holding `text`, in table order, until it returns `false`.
   * Probes at most the whole table, so a table that was never half empty cannot loop forever.
   */
  forEachIndex(text: string, visit: (position: number) => boolean | undefined): void {
    const table = this.#table;
    if (table.length === 0) return;
    const mask = table.length - 1;
    let at = stringHash(text) & mask;
    for (let probes = 0; probes < table.length; probes++) {
      const entry = table[at]!;
      if (entry === 0) return;
      if (this.equalsAt(entry - 1, text) && visit(entry - 1) === false) return;
      at = (at + 1) & mask;
    }
  }
}

function isWellFormed(text: string): boolean {
  // In Node 20+ (this package needs 22), not yet in the ES lib typed here.
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}
