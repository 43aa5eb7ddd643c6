import { decodePostings, encodePostings } from './posting-codec';
import { checkSections, type SectionCheck, wordsHash } from './snapshot-checksum';
import { parseRanking, type RankingDescription, SnapshotError } from './snapshot-ranking';
import {
  buildLookupTable,
  decodeString,
  encodeStrings,
  encodingFor,
  lookupTableSize,
  SnapshotStrings,
  type TextEncoding,
} from './snapshot-strings';
import { CONTENT_HASH_WORDS } from './tool-content-hash';
import { FIELD_COUNT } from './tool-index-options';

/**
 * The snapshot layout this code writes and reads; bump it whenever the layout changes. Version 4
 * added each tool's content hash; older snapshots are refused (`'version'`), never misread.
 */
export const SNAPSHOT_FORMAT_VERSION = 4;
/** "TSIX": marks a tool-search index snapshot. */
const MAGIC = [0x54, 0x53, 0x49, 0x58] as const;
/** Magic, format version and header length, 4 bytes each. */
const PREAMBLE_BYTES = 12;
/** The checksum word at the end. */
const CHECKSUM_BYTES = 4;
/** Typed arrays start on an 8-byte boundary. */
const SECTION_ALIGNMENT = 8;
/**
 * Description text is checked in blocks of this many bytes, each when a search first returns a
 * tool described in it: it is half of a typical snapshot and no ranking depends on it.
 */
const DESCRIPTION_BLOCK_BYTES = 16_384;
const DESCRIPTION_BLOCK_WORDS = DESCRIPTION_BLOCK_BYTES / 4;

/** What a snapshot holds: the live tools of an index, renumbered densely in slot order. */
export interface SnapshotContents {
  ranking: RankingDescription;
  ids: readonly string[];
  /** Terms with at least one posting, in term-id order. */
  terms: readonly string[];
  /** The tools whose exact-match key is not their id as is (see `toExactKey`), ascending, with those keys. */
  foldedKeySlots: Uint32Array;
  foldedKeys: readonly string[];
  /** Term occurrences per field, `FIELD_COUNT` per tool. */
  fieldLengths: Uint32Array;
  /** Each tool's content hash (see `tool-content-hash.ts`), `CONTENT_HASH_WORDS` per tool. */
  contentHashes: Uint32Array;
  /** Where each term's postings start in `postingSlots`; one more entry than terms. */
  postingOffsets: Uint32Array;
  /** The tools (slots) of each term's postings, ascending within a term. */
  postingSlots: Int32Array;
  /** Term frequency per field of each posting, `FIELD_COUNT` per posting. */
  postingFrequencies: Uint8Array;
}

/** A snapshot to write: its contents and every tool's description. */
export interface SnapshotInput extends SnapshotContents {
  descriptions: readonly string[];
}

/**
 * A restored snapshot, read in place: ids, terms and keys are decoded when first asked for and
 * found through the snapshot's lookup tables, descriptions are decoded one by one (only search
 * results need them), and the typed arrays are views of the caller's bytes (or of one copy).
 */
export interface DecodedSnapshot {
  ranking: RankingDescription;
  /** The ids by slot. */
  ids: SnapshotStrings;
  /** The terms by term id. */
  terms: SnapshotStrings;
  /** The folded exact-match keys, in the order of `foldedKeySlots`. */
  foldedKeys: SnapshotStrings;
  foldedKeySlots: Uint32Array;
  fieldLengths: Uint32Array;
  /** Each tool's content hash, `CONTENT_HASH_WORDS` per tool. */
  contentHashes: Uint32Array;
  /** The sum of each field's lengths over every tool. */
  fieldLengthSums: readonly number[];
  /** Where each term's postings start (as counted postings); one more entry than terms. */
  postingOffsets: Uint32Array;
  /** A term's postings, decoded (slots ascending, `FIELD_COUNT` counts each). */
  postingsOf(termId: number): { slots: Int32Array; frequencies: Uint8Array; length: number };
  /** A tool's description; its block of text is checked on first read (throws `SnapshotError`). */
  description(slot: number): string;
}

interface Header {
  ranking: unknown;
  slots: number;
  terms: number;
  foldedKeys: number;
  postings: number;
  postingBytes: number;
  fieldLengthSums: number[];
  textEncoding: TextEncoding;
  textBytes: number;
  descriptionEncoding: TextEncoding;
  descriptionBytes: number;
}

/** Byte offsets of each section, from the header's counts. */
function layoutOf(headerBytes: number, header: Header) {
  let offset = align(PREAMBLE_BYTES + headerBytes, SECTION_ALIGNMENT);
  const section = (bytes: number) => {
    const start = offset;
    offset = align(offset + bytes, SECTION_ALIGNMENT);
    return start;
  };
  const stringCount = header.slots + header.terms + header.foldedKeys;
  const tableSizes = {
    ids: lookupTableSize(header.slots),
    terms: lookupTableSize(header.terms),
    foldedKeys: lookupTableSize(header.foldedKeys),
  };
  const fieldLengths = section(header.slots * FIELD_COUNT * 4);
  const contentHashes = section(header.slots * CONTENT_HASH_WORDS * 4);
  const stringOffsets = section((stringCount + 1) * 4);
  const foldedKeySlots = section(header.foldedKeys * 4);
  const idTable = section(tableSizes.ids * 4);
  const termTable = section(tableSizes.terms * 4);
  const foldedKeyTable = section(tableSizes.foldedKeys * 4);
  const descriptionOffsets = section((header.slots + 1) * 4);
  const postingOffsets = section((header.terms + 1) * 4);
  const postingByteOffsets = section((header.terms + 1) * 4);
  const postingBytes = section(header.postingBytes);
  const text = section(header.textBytes);
  const descriptionBlocks = Math.ceil(
    align(header.descriptionBytes, SECTION_ALIGNMENT) / DESCRIPTION_BLOCK_BYTES,
  );
  const descriptionChecksums = section(descriptionBlocks * 4);
  const descriptions = section(header.descriptionBytes);
  return {
    stringCount,
    tableSizes,
    fieldLengths,
    contentHashes,
    stringOffsets,
    foldedKeySlots,
    idTable,
    termTable,
    foldedKeyTable,
    descriptionOffsets,
    postingOffsets,
    postingByteOffsets,
    postingBytes,
    text,
    descriptionBlocks,
    descriptionChecksums,
    descriptions,
    total: offset + CHECKSUM_BYTES,
  };
}

/**
 * Writes a snapshot: a small JSON header, typed-array sections (lookup tables included, so a
 * restore builds no map of ids or terms), the strings, and a checksum over everything before it.
 */
export function encodeSnapshot(input: SnapshotInput): Uint8Array {
  if (!isLittleEndian()) {
    throw new SnapshotError(
      'format',
      'ToolIndex.toSnapshot: snapshots need a little-endian platform',
    );
  }
  const slots = input.ids.length;
  const strings = [...input.ids, ...input.terms, ...input.foldedKeys];
  const textEncoding = encodingFor(strings);
  const text = encodeStrings(strings, textEncoding);
  const postings = encodePostings(
    input.postingOffsets,
    input.postingSlots,
    input.postingFrequencies,
  );
  const descriptionEncoding = encodingFor(input.descriptions);
  const descriptions = encodeStrings(input.descriptions, descriptionEncoding);
  const fieldLengthSums = new Array<number>(FIELD_COUNT).fill(0);
  for (let at = 0; at < input.fieldLengths.length; at++) {
    fieldLengthSums[at % FIELD_COUNT]! += input.fieldLengths[at]!;
  }
  const header: Header = {
    ranking: input.ranking,
    slots,
    terms: input.terms.length,
    foldedKeys: input.foldedKeys.length,
    postings: input.postingSlots.length,
    postingBytes: postings.bytes.length,
    fieldLengthSums,
    textEncoding,
    textBytes: text.bytes.length,
    descriptionEncoding,
    descriptionBytes: descriptions.bytes.length,
  };
  const headerJson = new TextEncoder().encode(JSON.stringify(header));
  const layout = layoutOf(headerJson.length, header);
  const buffer = new ArrayBuffer(layout.total);
  const bytes = new Uint8Array(buffer);
  bytes.set(MAGIC, 0);
  const preamble = new Uint32Array(buffer, 4, 2);
  preamble[0] = SNAPSHOT_FORMAT_VERSION;
  preamble[1] = headerJson.length;
  bytes.set(headerJson, PREAMBLE_BYTES);
  const put = (offset: number, array: Uint32Array | Int32Array | Uint8Array) =>
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
  put(layout.fieldLengths, input.fieldLengths);
  put(layout.contentHashes, input.contentHashes);
  put(layout.stringOffsets, text.offsets);
  put(layout.foldedKeySlots, input.foldedKeySlots);
  put(layout.idTable, buildLookupTable(input.ids));
  put(layout.termTable, buildLookupTable(input.terms));
  put(layout.foldedKeyTable, buildLookupTable(input.foldedKeys));
  put(layout.descriptionOffsets, descriptions.offsets);
  put(layout.postingOffsets, input.postingOffsets);
  put(layout.postingByteOffsets, postings.byteOffsets);
  put(layout.postingBytes, postings.bytes);
  put(layout.text, text.bytes);
  put(layout.descriptions, descriptions.bytes);
  const words = new Uint32Array(buffer, 0, (layout.total - CHECKSUM_BYTES) / 4);
  const checksums = new Uint32Array(buffer, layout.descriptionChecksums, layout.descriptionBlocks);
  for (let block = 0; block < layout.descriptionBlocks; block++) {
    checksums[block] = descriptionBlockHash(words, layout.descriptions / 4, block);
  }
  // The final checksum covers everything before the description text, block checksums included.
  new Uint32Array(buffer, layout.total - CHECKSUM_BYTES, 1)[0] = wordsHash(
    words,
    0,
    layout.descriptions / 4,
  );
  return bytes;
}

/**
 * Reads a snapshot, checking it before trusting it: the marker, the format version, the header,
 * that the sections fill its length exactly, and, in one pass over the bytes, a checksum over all
 * of them but the description text (any one damaged word changes it) together with the bounds of
 * every number the index looks things up by (offsets ascending and within their section, slots
 * and table entries in range), so that even bytes forged with a matching checksum cannot make it
 * read out of bounds. Description text, which no ranking reads, is checked block by block when
 * {@link DecodedSnapshot.description} first reads a block, and throws `SnapshotError` then.
 * The bytes are read in place when they are aligned (as a file read into a fresh buffer is), else
 * copied once; either way they must not change afterwards.
 * @throws SnapshotError
 */
export function decodeSnapshot(input: Uint8Array): DecodedSnapshot {
  if (!(input instanceof Uint8Array)) {
    throw new SnapshotError(
      'format',
      'ToolIndex.fromSnapshot: expected the snapshot bytes (a Uint8Array)',
    );
  }
  if (
    input.length < PREAMBLE_BYTES + CHECKSUM_BYTES ||
    MAGIC.some((byte, at) => input[at] !== byte)
  ) {
    throw new SnapshotError(
      'format',
      'ToolIndex.fromSnapshot: these bytes are not a tool-search index snapshot (made by index.toSnapshot())',
    );
  }
  if (!isLittleEndian()) {
    throw new SnapshotError(
      'format',
      'ToolIndex.fromSnapshot: snapshots need a little-endian platform',
    );
  }
  const corrupt = (what: string) =>
    new SnapshotError(
      'corrupt',
      `ToolIndex.fromSnapshot: the snapshot is damaged or truncated (${what}); rebuild it`,
    );
  const versionView = new DataView(input.buffer, input.byteOffset, PREAMBLE_BYTES);
  const version = versionView.getUint32(4, true);
  if (version !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(
      'version',
      `ToolIndex.fromSnapshot: the snapshot has format version ${version}; this version of tool-search-core reads version ${SNAPSHOT_FORMAT_VERSION}. Rebuild the snapshot with the version you run.`,
    );
  }
  if (input.length % 4 !== 0) throw corrupt('its length is not a whole number of words');
  // `new Uint8Array(input)` copies; a Node Buffer's own `slice` would not.
  const bytes = input.byteOffset % SECTION_ALIGNMENT === 0 ? input : new Uint8Array(input);
  const { buffer, byteOffset } = bytes;
  const headerBytes = versionView.getUint32(8, true);
  if (PREAMBLE_BYTES + headerBytes > input.length - CHECKSUM_BYTES)
    throw corrupt('header past the end');
  let header: Header;
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(
        bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + headerBytes),
      ),
    ) as Header;
  } catch {
    throw corrupt('unreadable header');
  }
  const counts = [
    header?.slots,
    header?.terms,
    header?.foldedKeys,
    header?.postings,
    header?.postingBytes,
    header?.textBytes,
    header?.descriptionBytes,
  ];
  if (!counts.every((count) => Number.isSafeInteger(count) && (count as number) >= 0)) {
    throw corrupt('bad counts');
  }
  const sums = header.fieldLengthSums;
  if (
    !Array.isArray(sums) ||
    sums.length !== FIELD_COUNT ||
    !sums.every((sum) => Number.isSafeInteger(sum) && sum >= 0)
  ) {
    throw corrupt('bad field lengths');
  }
  const { textEncoding, descriptionEncoding } = header;
  if (!isEncoding(textEncoding) || !isEncoding(descriptionEncoding))
    throw corrupt('unknown text encoding');
  const ranking = parseRanking(header.ranking);
  if (!ranking) throw corrupt('bad ranking options');
  const layout = layoutOf(headerBytes, header);
  if (layout.total !== input.length) throw corrupt('sections do not fit its length');

  const { slots, terms, postings, foldedKeys } = header;
  const word = (offset: number) => offset / 4;
  const checks: SectionCheck[] = [
    {
      from: word(layout.stringOffsets),
      count: layout.stringCount + 1,
      kind: 'offsets',
      limit: header.textBytes,
      what: 'bad strings',
    },
    {
      from: word(layout.foldedKeySlots),
      count: foldedKeys,
      kind: 'ascending',
      limit: slots - 1,
      what: 'a key names no tool',
    },
    {
      from: word(layout.idTable),
      count: layout.tableSizes.ids,
      kind: 'bounded',
      limit: slots,
      what: 'bad id table',
    },
    {
      from: word(layout.termTable),
      count: layout.tableSizes.terms,
      kind: 'bounded',
      limit: terms,
      what: 'bad term table',
    },
    {
      from: word(layout.foldedKeyTable),
      count: layout.tableSizes.foldedKeys,
      kind: 'bounded',
      limit: foldedKeys,
      what: 'bad key table',
    },
    {
      from: word(layout.descriptionOffsets),
      count: slots + 1,
      kind: 'offsets',
      limit: header.descriptionBytes,
      what: 'bad descriptions',
    },
    {
      from: word(layout.postingOffsets),
      count: terms + 1,
      kind: 'offsets',
      limit: postings,
      what: 'bad postings',
    },
    {
      from: word(layout.postingByteOffsets),
      count: terms + 1,
      kind: 'offsets',
      limit: header.postingBytes,
      what: 'bad postings',
    },
  ];
  const words = new Uint32Array(buffer, byteOffset, input.length / 4 - 1);
  const checked = word(layout.descriptions);
  const checksum = new Uint32Array(buffer, byteOffset + input.length - CHECKSUM_BYTES, 1)[0];
  const scan = checkSections(words, checks, checked);
  if (scan.failure !== undefined) {
    // A damaged word fails the checksum as well; say so rather than name the section.
    throw corrupt(wordsHash(words, 0, checked) === checksum ? scan.failure : 'checksum mismatch');
  }
  if (scan.hash !== checksum) throw corrupt('checksum mismatch');

  const u32 = (offset: number, length: number) =>
    new Uint32Array(buffer, byteOffset + offset, length);
  const stringOffsets = u32(layout.stringOffsets, layout.stringCount + 1);
  const text = bytes.subarray(layout.text, layout.text + header.textBytes);
  const strings = (from: number, count: number, table: number, tableSize: number) =>
    new SnapshotStrings(
      text,
      stringOffsets.subarray(from, from + count + 1),
      textEncoding,
      u32(table, tableSize),
    );
  const postingOffsets = u32(layout.postingOffsets, terms + 1);
  const postingByteOffsets = u32(layout.postingByteOffsets, terms + 1);
  const postingBytes = bytes.subarray(
    layout.postingBytes,
    layout.postingBytes + header.postingBytes,
  );
  const descriptionOffsets = u32(layout.descriptionOffsets, slots + 1);
  const descriptionBytes = bytes.subarray(
    layout.descriptions,
    layout.descriptions + header.descriptionBytes,
  );
  const descriptionChecksums = u32(layout.descriptionChecksums, layout.descriptionBlocks);
  const checkedBlocks = new Uint8Array(layout.descriptionBlocks);
  /** Checks the blocks holding description bytes `[start, end)`, each once. */
  const checkDescriptions = (start: number, end: number) => {
    if (end <= start) return;
    const last = Math.floor((end - 1) / DESCRIPTION_BLOCK_BYTES);
    for (let block = Math.floor(start / DESCRIPTION_BLOCK_BYTES); block <= last; block++) {
      if (checkedBlocks[block] === 1) continue;
      if (descriptionBlockHash(words, checked, block) !== descriptionChecksums[block]) {
        throw new SnapshotError(
          'corrupt',
          `ToolIndex: the snapshot this index was restored from is damaged (description text, block ${block}); rebuild it`,
        );
      }
      checkedBlocks[block] = 1;
    }
  };
  return {
    ranking,
    ids: strings(0, slots, layout.idTable, layout.tableSizes.ids),
    terms: strings(slots, terms, layout.termTable, layout.tableSizes.terms),
    foldedKeys: strings(
      slots + terms,
      foldedKeys,
      layout.foldedKeyTable,
      layout.tableSizes.foldedKeys,
    ),
    foldedKeySlots: u32(layout.foldedKeySlots, foldedKeys),
    fieldLengths: u32(layout.fieldLengths, slots * FIELD_COUNT),
    contentHashes: u32(layout.contentHashes, slots * CONTENT_HASH_WORDS),
    fieldLengthSums: sums,
    postingOffsets,
    postingsOf: (termId) =>
      decodePostings(
        postingBytes.subarray(postingByteOffsets[termId]!, postingByteOffsets[termId + 1]!),
        postingOffsets[termId + 1]! - postingOffsets[termId]!,
        slots,
      ),
    description: (slot) => {
      const start = descriptionOffsets[slot]!;
      const end = descriptionOffsets[slot + 1]!;
      checkDescriptions(start, end);
      return decodeString(descriptionBytes.subarray(start, end), descriptionEncoding);
    },
  };
}

/** The checksum of one block of description text (the last block ends with the section). */
function descriptionBlockHash(words: Uint32Array, firstWord: number, block: number): number {
  const from = firstWord + block * DESCRIPTION_BLOCK_WORDS;
  return wordsHash(words, from, Math.min(from + DESCRIPTION_BLOCK_WORDS, words.length));
}

function isEncoding(value: unknown): value is TextEncoding {
  return value === 'utf-8' || value === 'utf-16';
}

function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}
