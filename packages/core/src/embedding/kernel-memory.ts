/**
 * @internal Memory laid out by a {@link VectorMatrix} and the two loops that read it, in
 * WebAssembly or in JavaScript. Offsets are in bytes.
 */
export interface KernelMemory {
  /** What runs the loops. */
  readonly kind: 'wasm' | 'js';
  readonly buffer: ArrayBuffer;
  /**
   * The first pass: for each of `count` rows of `stride` code bytes at `codes` (pairs: the even
   * code plus 128, then the odd code, signed), the dot product with the 8-bit query at `query`
   * (per 16 codes: eight i16 `x`, then eight i16 `y − 256·x`) minus `offset`, turned into f64
   * bounds of the cosine with the row's info at `info` (f64 scale, error, norm, base; 32 bytes a
   * row): `estimate = dot · (step · scale)`, `bound = queryNorm · error + queryError · norm +
   * slack`, `upper = (estimate + bound) + base`, `lower = (estimate − bound) + base`.
   */
  scan(
    query: number,
    codes: number,
    count: number,
    stride: number,
    info: number,
    step: number,
    queryNorm: number,
    queryError: number,
    slack: number,
    offset: number,
    upper: number,
    lower: number,
  ): void;
  /**
   * The bounds again for the `count` rows listed (i32) at `rows`, from the 16-bit query at
   * `query` (per 16 codes: eight i16 for the even codes, then eight for the odd ones) minus
   * `offset`, each kept where tighter than the stored one.
   */
  refine(
    query: number,
    codes: number,
    stride: number,
    rows: number,
    count: number,
    info: number,
    step: number,
    queryNorm: number,
    queryError: number,
    slack: number,
    offset: number,
    upper: number,
    lower: number,
  ): void;
  /** The `wanted`-th largest of `count` f64 at `values` (1 ≤ wanted ≤ count); `heap` holds `wanted` f64. */
  select(values: number, count: number, wanted: number, heap: number): number;
  /**
   * Writes to `out` the indexes (i32) of the `count` f64 at `values` that are ≥ `minimum`,
   * < `ceiling` and not −∞; returns how many.
   */
  collect(values: number, count: number, minimum: number, ceiling: number, out: number): number;
  /**
   * WebAssembly only: for each of the `count` rows listed (i32) at `rows`, the f64 dot product of
   * the row's `dimension` f32 (at `floats + row · dimension · 4`) with the query's `dimension`
   * f32 values widened to f64 at `query`, summed like the JavaScript `dot`, written to `out`.
   */
  exact?(
    query: number,
    floats: number,
    dimension: number,
    rows: number,
    count: number,
    out: number,
  ): void;
}
