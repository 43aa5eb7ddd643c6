import { parseRanking, type RankingDescription, SnapshotError } from './snapshot-ranking';
import { FIELD_COUNT } from './tool-index-options';

/** The snapshot layout this code writes and reads; bump it whenever the layout changes. */
export const SNAPSHOT_FORMAT_VERSION = 1;
/** "TSIX": marks a tool-search index snapshot. */
const MAGIC = [0x54, 0x53, 0x49, 0x58] as const;
/** Magic, format version and header length, 4 bytes each. */
const PREAMBLE_BYTES = 12;
/** The checksum word at the end. */
const CHECKSUM_BYTES = 4;
/** Typed arrays start on an 8-byte boundary. */
const SECTION_ALIGNMENT = 8;
/** Code units per `String.fromCharCode` call when text is stored as UTF-16. */
const UTF16_CHUNK = 8_192;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** What a snapshot holds: the live tools of an index, renumbered densely in slot order. */
export interface SnapshotContents {
  ranking: RankingDescription;
  ids: string[];
  /** Terms with at least one posting, in term-id order. */
  terms: string[];
  /** The tools whose exact-match key is not their id as is (see `toExactKey`), with those keys. */
  foldedKeySlots: Uint32Array;
  foldedKeys: string[];
  /** Term occurrences per field, `FIELD_COUNT` per tool. */
  fieldLengths: Uint32Array;
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
 * A restored snapshot. Descriptions are decoded one by one when asked for (only search results
 * need them), and typed arrays may be views of the caller's bytes.
 */
export interface DecodedSnapshot extends SnapshotContents {
  description(slot: number): string;
}

interface Header {
  ranking: unknown;
  slots: number;
  terms: number;
  foldedKeys: number;
  postings: number;
  textUnits: number;
  textEncoding: TextEncoding;
  textBytes: number;
  descriptionEncoding: TextEncoding;
  descriptionBytes: number;
}

type TextEncoding = 'utf-8' | 'utf-16';

/** Byte offsets of each section, from the header's counts. */
function layoutOf(headerBytes: number, header: Header) {
  let offset = align(PREAMBLE_BYTES + headerBytes, SECTION_ALIGNMENT);
  const section = (bytes: number) => {
    const start = offset;
    offset = align(offset + bytes, SECTION_ALIGNMENT);
    return start;
  };
  const stringCount = header.slots + header.terms + header.foldedKeys;
  const fieldLengths = section(header.slots * FIELD_COUNT * 4);
  const stringLengths = section(stringCount * 4);
  const foldedKeySlots = section(header.foldedKeys * 4);
  const descriptionOffsets = section((header.slots + 1) * 4);
  const postingOffsets = section((header.terms + 1) * 4);
  const postingSlots = section(header.postings * 4);
  const postingFrequencies = section(header.postings * FIELD_COUNT);
  const text = section(header.textBytes);
  const descriptions = section(header.descriptionBytes);
  return {
    stringCount,
    fieldLengths,
    stringLengths,
    foldedKeySlots,
    descriptionOffsets,
    postingOffsets,
    postingSlots,
    postingFrequencies,
    text,
    descriptions,
    total: offset + CHECKSUM_BYTES,
  };
}

/** Writes a snapshot: a small JSON header, typed-array sections, the strings, a checksum. */
export function encodeSnapshot(input: SnapshotInput): Uint8Array {
  if (!isLittleEndian()) {
    throw new SnapshotError(
      'format',
      'ToolIndex.toSnapshot: snapshots need a little-endian platform',
    );
  }
  const slots = input.ids.length;
  const strings = [...input.ids, ...input.terms, ...input.foldedKeys];
  const stringLengths = new Uint32Array(strings.length);
  for (let position = 0; position < strings.length; position++) {
    stringLengths[position] = strings[position]!.length;
  }
  const text = toBytes(strings.join(''));
  const descriptionOffsets = new Uint32Array(slots + 1);
  const allDescriptions = input.descriptions.join('');
  const descriptionEncoding: TextEncoding = isWellFormed(allDescriptions) ? 'utf-8' : 'utf-16';
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let descriptionBytes = 0;
  for (let slot = 0; slot < slots; slot++) {
    const description = input.descriptions[slot]!;
    const part =
      descriptionEncoding === 'utf-8' ? encoder.encode(description) : utf16Bytes(description);
    parts.push(part);
    descriptionBytes += part.length;
    descriptionOffsets[slot + 1] = descriptionBytes;
  }
  const header: Header = {
    ranking: input.ranking,
    slots,
    terms: input.terms.length,
    foldedKeys: input.foldedKeys.length,
    postings: input.postingSlots.length,
    textUnits: text.units,
    textEncoding: text.encoding,
    textBytes: text.bytes.length,
    descriptionEncoding,
    descriptionBytes,
  };
  const headerJson = encoder.encode(JSON.stringify(header));
  const layout = layoutOf(headerJson.length, header);
  const buffer = new ArrayBuffer(layout.total);
  const bytes = new Uint8Array(buffer);
  bytes.set(MAGIC, 0);
  const preamble = new Uint32Array(buffer, 4, 2);
  preamble[0] = SNAPSHOT_FORMAT_VERSION;
  preamble[1] = headerJson.length;
  bytes.set(headerJson, PREAMBLE_BYTES);
  const put = (offset: number, array: Uint32Array | Int32Array) =>
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
  put(layout.fieldLengths, input.fieldLengths);
  put(layout.stringLengths, stringLengths);
  put(layout.foldedKeySlots, input.foldedKeySlots);
  put(layout.descriptionOffsets, descriptionOffsets);
  put(layout.postingOffsets, input.postingOffsets);
  put(layout.postingSlots, input.postingSlots);
  bytes.set(input.postingFrequencies, layout.postingFrequencies);
  bytes.set(text.bytes, layout.text);
  let at = layout.descriptions;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  const words = new Uint32Array(buffer, 0, (layout.total - CHECKSUM_BYTES) / 4);
  new Uint32Array(buffer, layout.total - CHECKSUM_BYTES, 1)[0] = checksum(words);
  return bytes;
}

/**
 * Reads a snapshot, checking everything before trusting it: the marker, the format version,
 * the checksum, the header and that every section fits and is consistent. The bytes are read in
 * place when they are aligned (as a file read into a fresh buffer is), else copied once; either
 * way they must not change afterwards.
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
  const words = new Uint32Array(buffer, byteOffset, input.length / 4 - 1);
  if (
    checksum(words) !== new Uint32Array(buffer, byteOffset + input.length - CHECKSUM_BYTES, 1)[0]
  ) {
    throw corrupt('checksum mismatch');
  }
  const headerBytes = versionView.getUint32(8, true);
  if (PREAMBLE_BYTES + headerBytes > input.length) throw corrupt('header past the end');
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
    header?.textUnits,
    header?.textBytes,
    header?.descriptionBytes,
  ];
  if (!counts.every((count) => Number.isSafeInteger(count) && (count as number) >= 0)) {
    throw corrupt('bad counts');
  }
  const ranking = parseRanking(header.ranking);
  if (!ranking) throw corrupt('bad ranking options');
  const layout = layoutOf(headerBytes, header);
  if (layout.total !== input.length) throw corrupt('sections do not fit its length');

  const { slots, terms, postings, foldedKeys } = header;
  const u32 = (offset: number, length: number) =>
    new Uint32Array(buffer, byteOffset + offset, length);
  const fieldLengths = u32(layout.fieldLengths, slots * FIELD_COUNT);
  const stringLengths = u32(layout.stringLengths, layout.stringCount);
  const foldedKeySlots = u32(layout.foldedKeySlots, foldedKeys);
  const descriptionOffsets = u32(layout.descriptionOffsets, slots + 1);
  const postingOffsets = u32(layout.postingOffsets, terms + 1);
  const postingSlots = new Int32Array(buffer, byteOffset + layout.postingSlots, postings);
  const postingFrequencies = bytes.subarray(
    layout.postingFrequencies,
    layout.postingFrequencies + postings * FIELD_COUNT,
  );
  if (postingOffsets[0] !== 0 || postingOffsets[terms] !== postings) throw corrupt('bad postings');
  for (let term = 0; term < terms; term++) {
    if (postingOffsets[term + 1]! < postingOffsets[term]!) throw corrupt('bad postings');
  }
  for (let position = 0; position < postings; position++) {
    const slot = postingSlots[position]!;
    if (slot < 0 || slot >= slots) throw corrupt('a posting names no tool');
  }
  for (const slot of foldedKeySlots) if (slot >= slots) throw corrupt('a key names no tool');
  if (descriptionOffsets[0] !== 0 || descriptionOffsets[slots] !== header.descriptionBytes)
    throw corrupt('bad descriptions');
  for (let slot = 0; slot < slots; slot++) {
    if (descriptionOffsets[slot + 1]! < descriptionOffsets[slot]!)
      throw corrupt('bad descriptions');
  }

  const text = decodeText(
    bytes.subarray(layout.text, layout.text + header.textBytes),
    header.textEncoding,
  );
  if (text === undefined || text.length !== header.textUnits) throw corrupt('unreadable text');
  const strings: string[] = new Array(stringLengths.length);
  let offset = 0;
  for (let position = 0; position < stringLengths.length; position++) {
    const end = offset + stringLengths[position]!;
    if (end > text.length) throw corrupt('strings past the text');
    strings[position] = text.slice(offset, end);
    offset = end;
  }
  if (offset !== text.length) throw corrupt('text left over');

  const descriptionBytes = bytes.subarray(
    layout.descriptions,
    layout.descriptions + header.descriptionBytes,
  );
  const { descriptionEncoding } = header;
  if (descriptionEncoding !== 'utf-8' && descriptionEncoding !== 'utf-16')
    throw corrupt('unknown text encoding');
  return {
    ranking,
    ids: strings.slice(0, slots),
    terms: strings.slice(slots, slots + terms),
    foldedKeys: strings.slice(slots + terms),
    foldedKeySlots,
    fieldLengths,
    postingOffsets,
    postingSlots,
    postingFrequencies,
    description: (slot) =>
      decodeText(
        descriptionBytes.subarray(descriptionOffsets[slot]!, descriptionOffsets[slot + 1]!),
        descriptionEncoding,
      ) ?? '',
  };
}

/** Text as bytes: UTF-8, or UTF-16 when a string holds a lone surrogate (UTF-8 cannot carry one exactly). */
function toBytes(text: string): { bytes: Uint8Array; encoding: TextEncoding; units: number } {
  return isWellFormed(text)
    ? { bytes: new TextEncoder().encode(text), encoding: 'utf-8', units: text.length }
    : { bytes: utf16Bytes(text), encoding: 'utf-16', units: text.length };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(bytes: Uint8Array, encoding: TextEncoding): string | undefined {
  if (encoding === 'utf-8') {
    try {
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (encoding !== 'utf-16' || bytes.length % 2 !== 0) return undefined;
  // Copied, so the code units are aligned whatever the offset.
  return fromUtf16(new Uint16Array(new Uint8Array(bytes).buffer));
}

function isWellFormed(text: string): boolean {
  // In Node 20+ (this package needs 22), not yet in the ES lib typed here.
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}

/** FNV-1a over 32-bit words: every step is a bijection, so any one damaged word is always caught. */
function checksum(words: Uint32Array): number {
  let hash = FNV_OFFSET;
  for (let position = 0; position < words.length; position++) {
    hash = Math.imul(hash ^ words[position]!, FNV_PRIME);
  }
  return hash >>> 0;
}

function utf16Bytes(text: string): Uint8Array {
  const units = new Uint16Array(text.length);
  for (let position = 0; position < text.length; position++) {
    units[position] = text.charCodeAt(position);
  }
  return new Uint8Array(units.buffer);
}

function fromUtf16(units: Uint16Array): string {
  let text = '';
  for (let start = 0; start < units.length; start += UTF16_CHUNK) {
    text += String.fromCharCode(...units.subarray(start, start + UTF16_CHUNK));
  }
  return text;
}

function isLittleEndian(): boolean {
  return new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
}
