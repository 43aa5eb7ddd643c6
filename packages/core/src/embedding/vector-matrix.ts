import { dot } from './exact-dot';
import type { KernelMemory } from './kernel-memory';
import { clamp, EVEN_OFFSET, encodeQuery, type QueryCodes } from './query-codes';
import { createKernelMemory, type SimilarityKernelPreference } from './similarity-kernel';
import type { VectorCache } from './vector-cache';

/** Codes of tool vectors are 8-bit: -127..127 (never -128, so negating one cannot overflow). */
const CODE_LIMIT = 127;
/** The WebAssembly scan reads 32 codes per turn: rows are zero-padded to a multiple of this. */
const ROW_ALIGN = 32;
/** The first pass's query codes: the kernel's pair trick needs |code| ≤ 127. */
const SCAN_QUERY_LIMIT = 127;
/** The refinement's query codes are 16-bit. */
const REFINE_QUERY_LIMIT = 32_767;
/** The kernel sums in 32-bit integers: query codes are kept small enough that the dot fits. */
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
 * Every estimate comes with a proven error bound: with a row quantized as `v = s·c + e` and the
 * query as `q = t·d + f`, `q·v − s·t·(c·d) = q·e + s·(f·c)`, so by Cauchy–Schwarz the estimate is
 * off by at most `‖q‖·‖e‖ + ‖f‖·‖s·c‖`, both row norms recorded. The scan of every row uses an
 * 8-bit query (fast); the rows that may rank are refined with a 16-bit one (tight). Rows whose
 * upper bound cannot reach the k-th exact score are never re-ranked, so the ranking equals a full
 * exact scan.
 *
 * Memory per tool: 4 bytes per dimension for the float vector (the cache then shares this copy,
 * for the engine's own catalog), the dimension rounded up to 32 in bytes of codes, 32 for the
 * row's scale, norms and base, 16 for the bounds, 12 for selecting candidates, and two references
 * (id, vector).
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
  readonly #codes: Uint8Array;
  readonly #info: Float64Array;
  readonly #scanLanes: Int16Array;
  readonly #refineLanes: Int16Array;
  readonly #floats: Float32Array;
  readonly #exactScores: Float64Array;
  readonly #exactRows: Int32Array;
  readonly #found: Int32Array;
  readonly #refineAt: number;
  readonly #queryValuesAt: number;
  readonly #exactRowsAt: number;
  readonly #exactAt: number;
  readonly #floatsAt: number;
  readonly #infoAt: number;
  readonly #upperAt: number;
  readonly #lowerAt: number;
  readonly #heapAt: number;
  readonly #foundAt: number;
  readonly #codesAt: number;
  #version = -1;
  #scans = 0;
  /** The latest scan's query, its largest component and norm, and its 16-bit codes for `refine`. */
  #scanned: { query: Float32Array; largest: number } | undefined;
  #queryNorm = 0;
  #refineQuery: QueryCodes = { step: 0, error: 0, offset: 0 };
  /** The scan whose query the 16-bit lanes hold. */
  #refineFor = -1;
  /** The query whose floats the memory holds for `exact`. */
  #exactQuery: Float32Array | undefined;

  constructor(options: {
    ids: readonly string[];
    hashes: readonly string[];
    dimension: number;
    generation: number;
    /** `'wasm'` uses WebAssembly whatever the size (tests). */
    kernel: SimilarityKernelPreference | 'wasm';
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
    // Layout: the query's 8-bit and 16-bit lanes (i16) and values (f64), a batch of rows to re-rank
    // (i32) and their exact scores (f64), per-row info, upper and lower bounds (f64), a heap for
    // selecting (f64), selected rows (i32), the codes, then the float vectors.
    this.#refineAt = align(stride * 2);
    this.#queryValuesAt = align(this.#refineAt + stride * 2);
    this.#exactRowsAt = align(this.#queryValuesAt + dimension * 8);
    this.#exactAt = align(this.#exactRowsAt + EXACT_BATCH * 4);
    this.#infoAt = align(this.#exactAt + EXACT_BATCH * 8);
    this.#upperAt = align(this.#infoAt + count * INFO_FIELDS * 8);
    this.#lowerAt = align(this.#upperAt + count * 8);
    this.#heapAt = align(this.#lowerAt + count * 8);
    this.#foundAt = align(this.#heapAt + count * 8);
    this.#codesAt = align(this.#foundAt + count * 4);
    this.#floatsAt = align(this.#codesAt + count * stride);
    this.#memory = createKernelMemory(this.#floatsAt + count * dimension * 4, options.kernel);
    const buffer = this.#memory.buffer;
    this.#codes = new Uint8Array(buffer, this.#codesAt, count * stride);
    this.#scanLanes = new Int16Array(buffer, 0, stride);
    this.#refineLanes = new Int16Array(buffer, this.#refineAt, stride);
    this.#floats = new Float32Array(buffer, this.#floatsAt, count * dimension);
    this.#exactRows = new Int32Array(buffer, this.#exactRowsAt, EXACT_BATCH);
    this.#exactScores = new Float64Array(buffer, this.#exactAt, EXACT_BATCH);
    this.#info = new Float64Array(buffer, this.#infoAt, count * INFO_FIELDS);
    this.upper = new Float64Array(buffer, this.#upperAt, count);
    this.lower = new Float64Array(buffer, this.#lowerAt, count);
    this.#found = new Int32Array(buffer, this.#foundAt, count);
    // Every code starts at 0 (the even byte holds 0 + 128): padding adds nothing to a dot.
    for (let row = 0; row < count; row++) {
      this.#info[row * INFO_FIELDS + 3] = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < stride; i += 2) this.#codes[row * stride + i] = EVEN_OFFSET;
    }
  }

  /** What scans this matrix: WebAssembly SIMD or JavaScript. */
  get kernel(): 'wasm' | 'js' {
    return this.#memory.kind;
  }

  /** Bytes the matrix holds: vectors, codes, row info, bounds, the query, re-ranking space. */
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
   * has not changed). Each vector is copied into the matrix; with `share`, the cache then keeps
   * the matrix's copy instead of its own (for the engine's own catalog, which lives as long as
   * the cache: a vector is then held once).
   */
  fill(cache: VectorCache, share: boolean): void {
    if (this.#version === cache.version || this.complete) return;
    const dimension = this.dimension;
    for (let row = 0; row < this.ids.length; row++) {
      if (this.#vectors[row] !== undefined) continue;
      const hash = this.#hashes[row]!;
      const vector = cache.get(hash);
      if (vector === undefined || vector.length !== dimension) continue;
      const copy = this.#floats.subarray(row * dimension, (row + 1) * dimension);
      copy.set(vector);
      this.#quantize(row, copy);
      this.#vectors[row] = copy;
      if (share) cache.share(hash, copy);
      this.present++;
    }
    // Read after the loop: sharing does not change the cache's version.
    this.#version = cache.version;
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
    this.#queryNorm = Math.sqrt(sumOfSquares);
    this.#scanned = { query, largest };
    const scanQuery = encodeQuery(this.#scanLanes, query, {
      dimension: this.dimension,
      largest,
      limit: this.#queryLimit(SCAN_QUERY_LIMIT),
      forScan: true,
    });
    this.#memory.scan(
      0,
      this.#codesAt,
      this.ids.length,
      this.#stride,
      this.#infoAt,
      scanQuery.step,
      this.#queryNorm,
      scanQuery.error,
      BOUND_SLACK,
      scanQuery.offset,
      this.#upperAt,
      this.#lowerAt,
    );
    return ++this.#scans;
  }

  /**
   * Tightens the bounds of the rows whose upper bound is ≥ `minimum` and < `ceiling` with the
   * latest scan's query in 16 bits.
   * @returns those rows, in row order (a view overwritten by the next call)
   */
  refine(minimum: number, ceiling: number): Int32Array {
    const count = this.#memory.collect(
      this.#upperAt,
      this.ids.length,
      minimum,
      ceiling,
      this.#foundAt,
    );
    if (this.#refineFor !== this.#scans) {
      // Encoded on the first refinement after a scan: low dimensions never refine.
      const { query, largest } = this.#scanned!;
      this.#refineQuery = encodeQuery(this.#refineLanes, query, {
        dimension: this.dimension,
        largest,
        limit: this.#queryLimit(REFINE_QUERY_LIMIT),
        forScan: false,
      });
      this.#refineFor = this.#scans;
    }
    const query = this.#refineQuery;
    this.#memory.refine(
      this.#refineAt,
      this.#codesAt,
      this.#stride,
      this.#foundAt,
      count,
      this.#infoAt,
      query.step,
      this.#queryNorm,
      query.error,
      BOUND_SLACK,
      query.offset,
      this.#upperAt,
      this.#lowerAt,
    );
    return this.#found.subarray(0, count);
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
    const dimension = this.dimension;
    if (!exact) {
      for (let i = 0; i < rows.length; i++) {
        out[i] = dot(query, this.#vectors[rows[i]!]!, dimension);
      }
      return;
    }
    // Another search may have written its query here since (searches interleave).
    if (this.#exactQuery !== query) {
      new Float64Array(this.#memory.buffer, this.#queryValuesAt, dimension).set(
        query.subarray(0, dimension),
      );
      this.#exactQuery = query;
    }
    const listed = this.#exactRows;
    for (let i = 0; i < rows.length; i++) listed[i] = rows[i]!;
    exact(
      this.#queryValuesAt,
      this.#floatsAt,
      dimension,
      this.#exactRowsAt,
      rows.length,
      this.#exactAt,
    );
    const scores = this.#exactScores;
    for (let i = 0; i < rows.length; i++) out[i] = scores[i]!;
  }

  /** Writes a row's codes (in pairs, see the kernel), scale, error norm and quantized norm. */
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
      codes[start + i] = i % 2 === 0 ? code + EVEN_OFFSET : code & 0xff;
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

  /** The largest query code: `cap`, or less where codes up to `cap` could overflow the i32 sums. */
  #queryLimit(cap: number): number {
    // |Σ code·lane| ≤ 127 · limit · stride must stay within the i32 range.
    return Math.min(cap, Math.floor(MAX_I32 / (CODE_LIMIT * this.#stride)));
  }
}

function align(offset: number): number {
  return Math.ceil(offset / ALIGN) * ALIGN;
}
