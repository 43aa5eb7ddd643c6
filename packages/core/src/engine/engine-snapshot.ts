import { SnapshotError } from '../search/snapshot-ranking';

/** What an engine snapshot holds: the catalog's index snapshot and, with `embed`, the vector cache. */
export interface EngineSnapshotParts {
  /** The bytes `ToolIndex.toSnapshot()` wrote (their own format, checked by `ToolIndex.fromSnapshot`). */
  index: Uint8Array;
  /** The bytes `VectorCache.serialize()` wrote; `undefined` when the engine had no `embed`. */
  vectors: Uint8Array | undefined;
}

/** "TSEN": marks an engine snapshot (an index snapshot starts with "TSIX"). */
const MAGIC = [0x54, 0x53, 0x45, 0x4e] as const;
/** Bumped when the envelope's layout changes; other versions are refused, never misread. */
export const ENGINE_SNAPSHOT_FORMAT_VERSION = 1;
/**
 * magic, version (u32 each), index length, vectors length (u64 each), checksum (u32), then zeros:
 * the index starts 64 bytes in, so any alignment up to 64 bytes its own sections need inside a
 * freshly read file still holds inside the envelope.
 */
const HEADER_BYTES = 64;
/** The header bytes the checksum covers: everything before the checksum word. */
const CHECKED_HEADER_BYTES = 24;
const CHECKSUM_OFFSET = 24;
/** The vector bytes start on an 8-byte boundary after the index. */
const VECTORS_ALIGNMENT = 8;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Whether bytes start like an engine snapshot (rather than a plain index snapshot).
 * @param bytes - what the `snapshot` option was given
 */
export function isEngineSnapshot(bytes: Uint8Array): boolean {
  return (
    bytes instanceof Uint8Array &&
    bytes.length >= MAGIC.length &&
    MAGIC.every((byte, at) => bytes[at] === byte)
  );
}

/**
 * Wraps an index snapshot and a vector cache's bytes in one envelope: a header, the index
 * snapshot as written, then the vectors, with a checksum over the header and the vectors (the
 * index snapshot carries its own).
 */
export function encodeEngineSnapshot(parts: EngineSnapshotParts): Uint8Array {
  const vectors = parts.vectors ?? new Uint8Array(0);
  const vectorsAt = align(HEADER_BYTES + parts.index.length, VECTORS_ALIGNMENT);
  const bytes = new Uint8Array(vectorsAt + vectors.length);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  view.setUint32(4, ENGINE_SNAPSHOT_FORMAT_VERSION, true);
  view.setBigUint64(8, BigInt(parts.index.length), true);
  view.setBigUint64(16, BigInt(vectors.length), true);
  bytes.set(parts.index, HEADER_BYTES);
  bytes.set(vectors, vectorsAt);
  view.setUint32(CHECKSUM_OFFSET, checksumOf(bytes, vectorsAt, vectors.length), true);
  return bytes;
}

/**
 * Splits an engine snapshot into its parts, checking the envelope first. The parts are views of
 * the given bytes, not copies.
 * @throws SnapshotError (`'version'` for another format version, `'corrupt'` for damaged or
 *   truncated bytes)
 */
export function decodeEngineSnapshot(bytes: Uint8Array): EngineSnapshotParts {
  const corrupt = (what: string) =>
    new SnapshotError(
      'corrupt',
      `ToolSearchEngine: the engine snapshot is damaged or truncated (${what}); rebuild it with engine.toSnapshot()`,
    );
  if (!isEngineSnapshot(bytes) || bytes.length < HEADER_BYTES) throw corrupt('header too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const version = view.getUint32(4, true);
  if (version !== ENGINE_SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(
      'version',
      `ToolSearchEngine: the engine snapshot has format version ${version}; this version of tool-search-core reads version ${ENGINE_SNAPSHOT_FORMAT_VERSION}. Rebuild it with engine.toSnapshot() from the version you run.`,
    );
  }
  const indexLength = view.getBigUint64(8, true);
  const vectorsLength = view.getBigUint64(16, true);
  if (indexLength > BigInt(bytes.length) || vectorsLength > BigInt(bytes.length)) {
    throw corrupt('section lengths past the end');
  }
  const vectorsAt = align(HEADER_BYTES + Number(indexLength), VECTORS_ALIGNMENT);
  if (vectorsAt + Number(vectorsLength) !== bytes.length) {
    throw corrupt('sections do not fit its length');
  }
  if (Number(vectorsLength) % 4 !== 0) throw corrupt('vector bytes are not whole words');
  if (
    checksumOf(bytes, vectorsAt, Number(vectorsLength)) !== view.getUint32(CHECKSUM_OFFSET, true)
  ) {
    throw corrupt('checksum mismatch');
  }
  return {
    index: bytes.subarray(HEADER_BYTES, HEADER_BYTES + Number(indexLength)),
    vectors:
      vectorsLength === 0n
        ? undefined
        : bytes.subarray(vectorsAt, vectorsAt + Number(vectorsLength)),
  };
}

/**
 * FNV-1a over 32-bit little-endian words of the header's first bytes and of the vector bytes:
 * each step is a bijection, so any one damaged word is always caught.
 */
function checksumOf(bytes: Uint8Array, vectorsAt: number, vectorsLength: number): number {
  let hash = hashWords(FNV_OFFSET, bytes, 0, CHECKED_HEADER_BYTES);
  hash = hashWords(hash, bytes, vectorsAt, vectorsLength);
  return hash >>> 0;
}

function hashWords(seed: number, bytes: Uint8Array, start: number, length: number): number {
  let hash = seed;
  const offset = bytes.byteOffset + start;
  if (LITTLE_ENDIAN && offset % 4 === 0) {
    const words = new Uint32Array(bytes.buffer, offset, length / 4);
    for (let position = 0; position < words.length; position++) {
      hash = Math.imul(hash ^ words[position]!, FNV_PRIME);
    }
    return hash;
  }
  // Bytes at an odd offset (a small file read into Node's shared pool) or a big-endian host.
  const view = new DataView(bytes.buffer, offset, length);
  for (let at = 0; at < length; at += 4) {
    hash = Math.imul(hash ^ view.getUint32(at, true), FNV_PRIME);
  }
  return hash;
}

function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}
