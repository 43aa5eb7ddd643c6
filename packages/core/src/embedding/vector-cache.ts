/** Options of {@link VectorCache}. */
export interface VectorCacheOptions {
  /**
   * Names the model the vectors come from. It is written into {@link VectorCache.serialize}'s
   * bytes, and {@link VectorCache.restore} ignores bytes written for another model.
   */
  model?: string | undefined;
}

/** The bytes {@link VectorCache.serialize} writes start with these four: "TSVC". */
const MAGIC = 0x43565354;
/** Bumped when the byte layout changes; older layouts are then refused, never misread. */
const FORMAT_VERSION = 1;
/** A content hash is 128 bits. */
const HASH_BYTES = 16;
const HASH_PATTERN = /^[0-9a-f]{32}$/;
/** magic, format version, dimension, count, model byte length (u32 each). */
const HEADER_BYTES = 20;
/** Model names longer than this are cut in the bytes; a name is a label, not content. */
const MAX_MODEL_BYTES = 1_024;
/** Float32 rounding leaves a unit vector's squared norm this close to 1. */
const UNIT_TOLERANCE = 1e-5;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Tool vectors by the content hash of the text they embed: one vector per distinct text, shared by
 * every session and request of an engine. Vectors are kept at unit length (cosine similarity is
 * then a dot product), all of one dimension. `serialize` and `restore` carry the cache to another
 * process (e.g. inside an index snapshot), with the model name and the dimension recorded.
 */
export class VectorCache {
  /** The model the vectors come from, when named. */
  readonly model: string | undefined;
  readonly #vectors = new Map<string, Float32Array>();
  #dimension: number | undefined;
  #version = 0;
  #generation = 0;

  /** @param options - the model's name, recorded with the vectors */
  constructor(options: VectorCacheOptions = {}) {
    this.model = typeof options.model === 'string' ? options.model : undefined;
  }

  /** The dimension of every vector; `undefined` until the first one is stored. */
  get dimension(): number | undefined {
    return this.#dimension;
  }

  /** How many vectors are stored. */
  get size(): number {
    return this.#vectors.size;
  }

  /** @internal Changes whenever a vector is added or the cache is cleared. */
  get version(): number {
    return this.#version;
  }

  /** @internal Changes when the cache is cleared: vectors read before may be gone. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * The unit-length vector stored for a content hash.
   * @param hash - a content hash (`contentHash(text)`)
   */
  get(hash: string): Float32Array | undefined {
    return this.#vectors.get(hash);
  }

  /**
   * Stores a text's vector, scaled to unit length (an all-zero vector stays zero: similar to
   * nothing).
   * @param hash - the content hash of the embedded text
   * @param vector - finite numbers, as many as every other vector in the cache
   * @throws a TypeError for a malformed hash or a non-finite value, a RangeError for a dimension
   *   that differs from the cache's
   */
  set(hash: string, vector: ArrayLike<number>): void {
    if (typeof hash !== 'string' || !HASH_PATTERN.test(hash)) {
      throw new TypeError('VectorCache: a key must be a content hash (32 lower-case hex digits)');
    }
    const unit = toUnitVector(vector);
    if (unit === undefined) {
      throw new TypeError('VectorCache: a vector must be a non-empty list of finite numbers');
    }
    if (this.#dimension !== undefined && unit.length !== this.#dimension) {
      throw new RangeError(
        `VectorCache: vectors have ${this.#dimension} dimensions, this one has ${unit.length}`,
      );
    }
    this.#dimension = unit.length;
    this.#vectors.set(hash, unit);
    this.#version++;
  }

  /**
   * @internal Stores `copy`, an exact copy of the vector stored for `hash`, in its place, so the
   * two are held once (the similarity matrix keeps its rows contiguous). Not a change: the version
   * stays.
   */
  share(hash: string, copy: Float32Array): void {
    if (this.#vectors.get(hash)?.length === copy.length) this.#vectors.set(hash, copy);
  }

  /** Forgets every vector (and the dimension). */
  clear(): void {
    this.#vectors.clear();
    this.#dimension = undefined;
    this.#version++;
    this.#generation++;
  }

  /**
   * The cache as bytes: a header (format version, dimension, count, model name), then the
   * 16-byte content hashes, then the vectors as little-endian 32-bit floats.
   */
  serialize(): Uint8Array {
    const model = new TextEncoder().encode(this.model ?? '').subarray(0, MAX_MODEL_BYTES);
    const count = this.#vectors.size;
    const dimension = this.#dimension ?? 0;
    // Floats start at a multiple of 4 bytes, so they can be read in place on little-endian hosts.
    const hashesAt = align4(HEADER_BYTES + model.length);
    const vectorsAt = hashesAt + count * HASH_BYTES;
    const bytes = new Uint8Array(vectorsAt + count * dimension * 4);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, FORMAT_VERSION, true);
    view.setUint32(8, dimension, true);
    view.setUint32(12, count, true);
    // A model is written as its UTF-8 bytes; none is length 0xFFFFFFFF, so "" stays a name.
    view.setUint32(16, this.model === undefined ? 0xffffffff : model.length, true);
    bytes.set(model, HEADER_BYTES);
    let row = 0;
    for (const [hash, vector] of this.#vectors) {
      for (let byte = 0; byte < HASH_BYTES; byte++) {
        bytes[hashesAt + row * HASH_BYTES + byte] = Number.parseInt(
          hash.slice(byte * 2, byte * 2 + 2),
          16,
        );
      }
      const offset = vectorsAt + row * dimension * 4;
      if (LITTLE_ENDIAN) {
        bytes.set(new Uint8Array(vector.buffer, vector.byteOffset, dimension * 4), offset);
      } else {
        for (let i = 0; i < dimension; i++) view.setFloat32(offset + i * 4, vector[i]!, true);
      }
      row++;
    }
    return bytes;
  }

  /**
   * Adds the vectors of {@link VectorCache.serialize}'s bytes. Bytes written for another model,
   * or with another dimension than the vectors already here, are ignored (0 restored): such
   * vectors would rank nonsense.
   * @param bytes - what `serialize` wrote
   * @returns how many vectors were restored
   * @throws a TypeError when the bytes are not a vector cache of a known format
   */
  restore(bytes: Uint8Array): number {
    if (!(bytes instanceof Uint8Array) || bytes.length < HEADER_BYTES) {
      throw new TypeError('VectorCache.restore: not vector cache bytes');
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== MAGIC) {
      throw new TypeError('VectorCache.restore: not vector cache bytes');
    }
    const version = view.getUint32(4, true);
    if (version !== FORMAT_VERSION) {
      throw new TypeError(`VectorCache.restore: unknown format version ${version}`);
    }
    const dimension = view.getUint32(8, true);
    const count = view.getUint32(12, true);
    const modelLength = view.getUint32(16, true);
    const hasModel = modelLength !== 0xffffffff;
    const modelBytes = hasModel ? modelLength : 0;
    const hashesAt = align4(HEADER_BYTES + modelBytes);
    const vectorsAt = hashesAt + count * HASH_BYTES;
    if (
      modelBytes > MAX_MODEL_BYTES ||
      (count > 0 && dimension === 0) ||
      bytes.length !== vectorsAt + count * dimension * 4
    ) {
      throw new TypeError('VectorCache.restore: truncated or malformed vector cache bytes');
    }
    const model = hasModel
      ? new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + modelBytes))
      : undefined;
    const ownModel =
      this.model === undefined
        ? undefined
        : new TextDecoder().decode(
            new TextEncoder().encode(this.model).subarray(0, MAX_MODEL_BYTES),
          );
    if (model !== ownModel) return 0;
    if (count === 0) return 0;
    if (this.#dimension !== undefined && this.#dimension !== dimension) return 0;
    // One copy of every float (the bytes may sit at any offset), then a row view per vector.
    const floats = new Float32Array(count * dimension);
    if (LITTLE_ENDIAN) {
      new Uint8Array(floats.buffer).set(bytes.subarray(vectorsAt, vectorsAt + floats.length * 4));
    } else {
      for (let i = 0; i < floats.length; i++) floats[i] = view.getFloat32(vectorsAt + i * 4, true);
    }
    const rows: [string, Float32Array][] = [];
    for (let row = 0; row < count; row++) {
      let hash = '';
      for (let byte = 0; byte < HASH_BYTES; byte++) {
        hash += bytes[hashesAt + row * HASH_BYTES + byte]!.toString(16).padStart(2, '0');
      }
      const vector = floats.subarray(row * dimension, (row + 1) * dimension);
      if (!normalizeInPlace(vector)) {
        throw new TypeError('VectorCache.restore: the bytes hold a non-finite vector');
      }
      rows.push([hash, vector]);
    }
    // Stored only once every row is known good: malformed bytes leave the cache as it was.
    for (const [hash, vector] of rows) this.#vectors.set(hash, vector);
    const restored = rows.length;
    this.#dimension = dimension;
    this.#version++;
    return restored;
  }
}

/** What a vector cache's bytes say about themselves: the model, the dimension and the count. */
export interface VectorCacheHeader {
  model: string | undefined;
  dimension: number;
  count: number;
}

/**
 * @internal The header of {@link VectorCache.serialize}'s bytes, to say why a restore took
 * nothing; `undefined` when the bytes are not a vector cache of a known format.
 */
export function readVectorCacheHeader(bytes: Uint8Array): VectorCacheHeader | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length < HEADER_BYTES) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== FORMAT_VERSION) {
    return undefined;
  }
  const modelLength = view.getUint32(16, true);
  if (modelLength !== 0xffffffff && HEADER_BYTES + modelLength > bytes.length) return undefined;
  return {
    model:
      modelLength === 0xffffffff
        ? undefined
        : new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + modelLength)),
    dimension: view.getUint32(8, true),
    count: view.getUint32(12, true),
  };
}

/**
 * A copy of a vector scaled to unit length, or `undefined` when it is not a non-empty list of
 * finite numbers.
 */
export function toUnitVector(vector: ArrayLike<number>): Float32Array | undefined {
  if (vector === null || typeof vector !== 'object' || typeof vector.length !== 'number') {
    return undefined;
  }
  if (vector.length === 0) return undefined;
  // Each kind of input gets its own loop: one loop over arrays and typed arrays alike reads
  // every element through a slow, polymorphic path.
  if (vector instanceof Float32Array) return scaledFloats(vector, sumOfSquaresOfFloats(vector));
  if (Array.isArray(vector)) return scaledCopy(vector, sumOfSquaresOfArray(vector));
  return scaledCopy(vector, sumOfSquaresOfAny(vector));
}

/** {@link scaledCopy} for a Float32Array, in its own function so both loops stay monomorphic. */
function scaledFloats(vector: Float32Array, sumOfSquares: number): Float32Array | undefined {
  if (!Number.isFinite(sumOfSquares)) return undefined;
  const scale = sumOfSquares > 0 ? 1 / Math.sqrt(sumOfSquares) : 0;
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < unit.length; i++) unit[i] = vector[i]! * scale;
  return unit;
}

/** Σ v², or NaN when a value is not finite. */
function sumOfSquaresOfFloats(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i]!;
    if (!Number.isFinite(value)) return Number.NaN;
    sum += value * value;
  }
  return sum;
}

/** Σ v², or NaN when a value is not a finite number (arrays may hold anything). */
function sumOfSquaresOfArray(vector: readonly unknown[]): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) return Number.NaN;
    sum += value * value;
  }
  return sum;
}

function sumOfSquaresOfAny(vector: ArrayLike<unknown>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) return Number.NaN;
    sum += value * value;
  }
  return sum;
}

function scaledCopy(vector: ArrayLike<number>, sumOfSquares: number): Float32Array | undefined {
  // NaN: a value was not finite. Infinity: huge but finite components overflowed the sum; such
  // a vector is as unusable as NaN.
  if (!Number.isFinite(sumOfSquares)) return undefined;
  const scale = sumOfSquares > 0 ? 1 / Math.sqrt(sumOfSquares) : 0;
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < unit.length; i++) unit[i] = vector[i]! * scale;
  return unit;
}

/** Scales a vector to unit length where it lies; `false` when a value is not finite. */
function normalizeInPlace(vector: Float32Array): boolean {
  let sumOfSquares = 0;
  for (let i = 0; i < vector.length; i++) sumOfSquares += vector[i]! * vector[i]!;
  if (!Number.isFinite(sumOfSquares)) return false;
  // Vectors `serialize` wrote are unit length already: left as they are, they round-trip exactly.
  if (sumOfSquares > 0 && Math.abs(sumOfSquares - 1) > UNIT_TOLERANCE) {
    const scale = 1 / Math.sqrt(sumOfSquares);
    for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  }
  return true;
}

function align4(offset: number): number {
  return (offset + 3) & ~3;
}
