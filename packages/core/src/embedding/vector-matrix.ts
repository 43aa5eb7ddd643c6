import {
  createKernelMemory,
  type KernelMemory,
  type SimilarityKernelPreference,
} from './similarity-kernel';
import type { VectorCache } from './vector-cache';

/** Codes of tool vectors are 8-bit: -127..127 (never -128, so negating one cannot overflow). */
const CODE_LIMIT = 127;
/** The WebAssembly scan reads 32 codes per turn: rows are zero-padded to a multiple of this. */
const ROW_ALIGN = 32;
/** Query lanes are 16-bit. */
const MAX_QUERY_CODE = 32_767;
/** The scan sums in 32-bit integers: query codes are kept small enough that no sum overflows. */
const MAX_I32 = 2_147_483_647;
/** Candidate rows copied into the WebAssembly memory per exact call. */
export const EXACT_BATCH = 16;
/**
 * Added to every error bound: it covers the rounding of the bound's own arithmetic and of the
 * double-precision dot products (relative 2⁻⁵³ per operation: under 1e-10 in all for any dimension
 * up to a million), so a bound never excludes a row whose exact score could reach it.
 */
const BOUND_SLACK = 1e-9;
/** Offsets in the memory start on cache-line boundaries. */
const ALIGN = 64;
/** Per row: scale, error norm, quantized norm and base (0, or −∞ without a vector), as f64. */
const INFO_FIELDS = 4;

/**
 * @internal The vectors of one index's tools, in catalog order, as one contiguous matrix of 8-bit
 * codes (one scale per row) that a SIMD kernel scans once per search. Each row also keeps its
 * float vector (shared with the {@link VectorCache}) for the exact re-ranking of candidates.
 *
 * The first pass is exact about its own error: with a row quantized as `v = s·c + e` and the query
 * as `q = t·d + f`, `q·v − s·t·(c·d) = q·e + s·(f·c)`, so by Cauchy–Schwarz the estimate is off by
 * at most `‖q‖·‖e‖ + ‖f‖·‖s·c‖`, both norms recorded per row. Rows whose upper bound cannot reach
 * the k-th exact score are never re-ranked, so the ranking equals a full exact scan.
 *
 * Memory per tool: the dimension rounded up to 32, in bytes of codes; 32 for the row's scale, norms
 * and base; 16 for the scan's bounds; 12 for selecting candidates; two references (id, vector).
 * The float vectors are the cache's, not copied.
 */
export class VectorMatrix {
  readonly ids: readonly string[];
  readonly dimension: number;
  /** The cache generation the rows were read at: a cleared cache needs a new matrix. */
  readonly generation: number;
  /** Rows that have a vector. */
  present = 0;
  /** Per row, after {@link VectorMatrix.scan}: an upper bound of its cosine (−∞ without a vector). */
  readonly upper: Float64Array;
  /** Per row, after {@link VectorMatrix.scan}: a lower bound of its cosine (−∞ without a vector). */
  readonly lower: Float64Array;
  readonly #hashes: readonly string[];
  readonly #vectors: (Float32Array | undefined)[];
  readonly #stride: number;
  readonly #memory: KernelMemory;
  readonly #codes: Int8Array;
  readonly #info: Float64Array;
  readonly #queryLanes: Int16Array;
  readonly #floats: Float32Array;
  readonly #exactScores: Float64Array;
  readonly #floatsAt: number;
  readonly #rowsAt: number;
  readonly #exactAt: number;
  readonly #infoAt: number;
  readonly #upperAt: number;
  readonly #lowerAt: number;
  readonly #heapAt: number;
  readonly #foundAt: number;
  readonly #found: Int32Array;
  readonly #codesAt: number;
  #version = -1;
  #scans = 0;
  /** The query whose floats the memory holds for `exact`. */
  #exactQuery: Float32Array | undefined;

  constructor(options: {
    ids: readonly string[];
    hashes: readonly string[];
    dimension: number;
    generation: number;
    kernel: SimilarityKernelPreference;
  }) {
    const count = options.ids.length;
    const dimension = options.dimension;
    this.ids = options.ids;
    this.#hashes = options.hashes;
    this.dimension = dimension;
    this.generation = options.generation;
    this.#vectors = new Array<Float32Array | undefined>(count).fill(undefined);
    const stride = Math.ceil(dimension / ROW_ALIGN) * ROW_ALIGN;
    this.#stride = stride;
    // Layout: query lanes (i16), query floats, candidate rows and their exact scores (for the
    // WebAssembly re-ranking), per-row info, upper and lower bounds (f64), a heap for selecting
    // (f64) and selected rows (i32), then the codes.
    this.#floatsAt = align(stride * 2);
    this.#rowsAt = align(this.#floatsAt + dimension * 4);
    this.#exactAt = align(this.#rowsAt + EXACT_BATCH * dimension * 4);
    this.#infoAt = align(this.#exactAt + EXACT_BATCH * 8);
    this.#upperAt = align(this.#infoAt + count * INFO_FIELDS * 8);
    this.#lowerAt = align(this.#upperAt + count * 8);
    this.#heapAt = align(this.#lowerAt + count * 8);
    this.#foundAt = align(this.#heapAt + count * 8);
    this.#codesAt = align(this.#foundAt + count * 4);
    this.#memory = createKernelMemory(this.#codesAt + count * stride, options.kernel);
    const buffer = this.#memory.buffer;
    this.#codes = new Int8Array(buffer, this.#codesAt, count * stride);
    this.#queryLanes = new Int16Array(buffer, 0, stride);
    this.#floats = new Float32Array(buffer, 0, this.#exactAt >> 2);
    this.#exactScores = new Float64Array(buffer, this.#exactAt, EXACT_BATCH);
    this.#info = new Float64Array(buffer, this.#infoAt, count * INFO_FIELDS);
    this.upper = new Float64Array(buffer, this.#upperAt, count);
    this.lower = new Float64Array(buffer, this.#lowerAt, count);
    this.#found = new Int32Array(buffer, this.#foundAt, count);
    for (let row = 0; row < count; row++) {
      this.#info[row * INFO_FIELDS + 3] = Number.NEGATIVE_INFINITY;
    }
  }

  /** What scans this matrix: WebAssembly SIMD or JavaScript. */
  get kernel(): 'wasm' | 'js' {
    return this.#memory.kind;
  }

  /** Bytes the matrix holds apart from the vectors: codes, row info, bounds, query, re-ranking. */
  get byteLength(): number {
    return this.#memory.buffer.byteLength;
  }

  /** Every row has its vector: the matrix never changes again. */
  get complete(): boolean {
    return this.present === this.ids.length;
  }

  /**
   * Counts the scans run on this matrix: {@link VectorMatrix.upper} and
   * {@link VectorMatrix.lower} hold the bounds of the latest one only.
   */
  get scans(): number {
    return this.#scans;
  }

  /**
   * Adds the rows whose vectors arrived in the cache since the last call (a no-op when the cache
   * has not changed).
   */
  fill(cache: VectorCache): void {
    if (this.#version === cache.version || this.complete) return;
    this.#version = cache.version;
    for (let row = 0; row < this.ids.length; row++) {
      if (this.#vectors[row] !== undefined) continue;
      const vector = cache.get(this.#hashes[row]!);
      if (vector === undefined || vector.length !== this.dimension) continue;
      this.#quantize(row, vector);
      this.#vectors[row] = vector;
      this.present++;
    }
  }

  /**
   * The first pass for a query (unit length, of this matrix's dimension): writes every row's
   * bounds to {@link VectorMatrix.upper} and {@link VectorMatrix.lower}.
   * @returns the scan's number (see {@link VectorMatrix.scans})
   */
  scan(query: Float32Array): number {
    const dimension = this.dimension;
    let largest = 0;
    let sumOfSquares = 0;
    for (let i = 0; i < dimension; i++) {
      const value = query[i]!;
      largest = Math.max(largest, Math.abs(value));
      sumOfSquares += value * value;
    }
    // Query codes up to `limit` keep |Σ code·lane| ≤ 127 · limit · stride within the i32 range.
    const limit = Math.min(MAX_QUERY_CODE, Math.floor(MAX_I32 / (CODE_LIMIT * this.#stride)));
    const step = largest > 0 ? largest / limit : 0;
    const lanes = this.#queryLanes;
    let errorSquares = 0;
    for (let i = 0; i < dimension; i++) {
      const code = step > 0 ? clamp(Math.round(query[i]! / step), limit) : 0;
      lanes[i] = code;
      const error = query[i]! - code * step;
      errorSquares += error * error;
    }
    lanes.fill(0, dimension);
    this.#memory.scan(
      0,
      this.#codesAt,
      this.ids.length,
      this.#stride,
      this.#infoAt,
      step,
      Math.sqrt(sumOfSquares),
      Math.sqrt(errorSquares),
      BOUND_SLACK,
      this.#upperAt,
      this.#lowerAt,
    );
    return ++this.#scans;
  }

  /**
   * The `wanted`-th largest lower bound of the latest scan; −∞ when fewer rows have a vector.
   * @param wanted - at least 1
   */
  lowerBoundOfRank(wanted: number): number {
    if (wanted > this.present) return Number.NEGATIVE_INFINITY;
    return this.#memory.select(this.#lowerAt, this.ids.length, wanted, this.#heapAt);
  }

  /**
   * The rows whose upper bound in the latest scan is ≥ `minimum` and < `ceiling` (rows without a
   * vector never), in row order. The view is overwritten by the next call.
   */
  rowsWithUpperBound(minimum: number, ceiling: number): Int32Array {
    const found = this.#memory.collect(
      this.#upperAt,
      this.ids.length,
      minimum,
      ceiling,
      this.#foundAt,
    );
    return this.#found.subarray(0, found);
  }

  /**
   * Exact similarities (the double-precision `dot`) of the query with some rows that have vectors.
   * @param rows - at most {@link EXACT_BATCH} rows
   * @param out - receives one score per row, in order
   */
  exact(query: Float32Array, rows: readonly number[], out: Float64Array): void {
    const exact = this.#memory.exact;
    if (!exact) {
      for (let i = 0; i < rows.length; i++)
        out[i] = dot(query, this.#vectors[rows[i]!]!, this.dimension);
      return;
    }
    const dimension = this.dimension;
    const floats = this.#floats;
    // Another search may have written its query here since (searches interleave).
    if (this.#exactQuery !== query) {
      floats.set(query.subarray(0, dimension), this.#floatsAt >> 2);
      this.#exactQuery = query;
    }
    for (let i = 0; i < rows.length; i++) {
      floats.set(this.#vectors[rows[i]!]!, (this.#rowsAt >> 2) + i * dimension);
    }
    exact(this.#floatsAt, this.#rowsAt, rows.length, dimension, this.#exactAt);
    const scores = this.#exactScores;
    for (let i = 0; i < rows.length; i++) out[i] = scores[i]!;
  }

  /** Writes a row's codes, scale, quantization error norm and quantized norm. */
  #quantize(row: number, vector: Float32Array): void {
    const dimension = this.dimension;
    let largest = 0;
    for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(vector[i]!));
    const scale = largest / CODE_LIMIT;
    const codes = this.#codes;
    const start = row * this.#stride;
    let errorSquares = 0;
    let normSquares = 0;
    for (let i = 0; i < dimension; i++) {
      const code = scale > 0 ? clamp(Math.round(vector[i]! / scale), CODE_LIMIT) : 0;
      codes[start + i] = code;
      const approximation = code * scale;
      const error = vector[i]! - approximation;
      errorSquares += error * error;
      normSquares += approximation * approximation;
    }
    const at = row * INFO_FIELDS;
    this.#info[at] = scale;
    this.#info[at + 1] = Math.sqrt(errorSquares);
    this.#info[at + 2] = Math.sqrt(normSquares);
    this.#info[at + 3] = 0;
  }
}

/**
 * The dot product in double precision, with eight running sums (lane i mod 8; the last
 * `length % 8` products go to the first) added pairwise at the end: more sums keep more additions
 * in flight. The WebAssembly `exact` sums in exactly this order, so both give the same bits.
 */
export function dot(left: Float32Array, right: Float32Array, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  let i = 0;
  for (const end = length - 7; i < end; i += 8) {
    s0 += left[i]! * right[i]!;
    s1 += left[i + 1]! * right[i + 1]!;
    s2 += left[i + 2]! * right[i + 2]!;
    s3 += left[i + 3]! * right[i + 3]!;
    s4 += left[i + 4]! * right[i + 4]!;
    s5 += left[i + 5]! * right[i + 5]!;
    s6 += left[i + 6]! * right[i + 6]!;
    s7 += left[i + 7]! * right[i + 7]!;
  }
  for (; i < length; i++) s0 += left[i]! * right[i]!;
  return s0 + s1 + (s2 + s3) + (s4 + s5 + (s6 + s7));
}

function clamp(code: number, limit: number): number {
  return Math.min(limit, Math.max(-limit, code));
}

function align(offset: number): number {
  return Math.ceil(offset / ALIGN) * ALIGN;
}
