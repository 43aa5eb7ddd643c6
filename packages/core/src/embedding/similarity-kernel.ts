import { SIMILARITY_KERNEL_WASM } from './similarity-kernel-wasm';

/**
 * Which code computes similarities: `'auto'` uses WebAssembly SIMD where the runtime allows it
 * (and plain JavaScript where it does not); `'js'` always uses JavaScript. Both rank identically.
 */
export type SimilarityKernelPreference = 'auto' | 'js';

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

/** The part of the WebAssembly API the kernel uses (the core's types include no DOM library). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
}

type KernelExports = Pick<KernelMemory, 'scan' | 'refine' | 'select' | 'collect'> & {
  exact: NonNullable<KernelMemory['exact']>;
};

const WASM_PAGE_BYTES = 65_536;
/**
 * Smaller matrices (a request's few tools) use the JavaScript loops: they take microseconds there,
 * and each WebAssembly memory reserves gigabytes of address space, of which a process has a
 * limited amount (and requests come and go).
 */
const MIN_WASM_MEMORY_BYTES = 4 * WASM_PAGE_BYTES;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** A 32-bit WebAssembly memory holds at most 65,536 pages (4 GiB). */
const MAX_WASM_PAGES = 65_536;

/** The compiled module; `null` once compiling failed (no WebAssembly, no SIMD, or forbidden). */
let compiled: object | null | undefined;

function webAssembly(): WebAssemblyApi | undefined {
  return (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
}

function kernelModule(): object | null {
  if (compiled === undefined) {
    try {
      const api = webAssembly();
      compiled = api ? new api.Module(decodeBase64(SIMILARITY_KERNEL_WASM)) : null;
    } catch {
      // No SIMD support, or code generation forbidden (a content security policy, some edge runtimes).
      compiled = null;
    }
  }
  return compiled;
}

/**
 * @internal Memory of `bytes` bytes with the fastest kernel allowed: WebAssembly SIMD unless
 * `preference` is `'js'`, the memory is small (`'wasm'` overrides that, for tests), or the
 * runtime cannot run it; plain JavaScript on an ArrayBuffer otherwise.
 */
export function createKernelMemory(
  bytes: number,
  preference: SimilarityKernelPreference | 'wasm',
): KernelMemory {
  const wanted = preference === 'wasm' || (preference === 'auto' && bytes >= MIN_WASM_MEMORY_BYTES);
  // WebAssembly memory is little-endian; the typed arrays that fill it use the host's order.
  const module = wanted && LITTLE_ENDIAN ? kernelModule() : null;
  const pages = Math.max(1, Math.ceil(bytes / WASM_PAGE_BYTES));
  const api = webAssembly();
  if (module && api && pages <= MAX_WASM_PAGES) {
    try {
      const memory = new api.Memory({ initial: pages });
      const instance = new api.Instance(module, { env: { memory } });
      const exports = instance.exports as unknown as KernelExports;
      return {
        kind: 'wasm',
        buffer: memory.buffer,
        scan: exports.scan,
        refine: exports.refine,
        select: exports.select,
        collect: exports.collect,
        exact: exports.exact,
      };
    } catch {
      // Out of address space for another memory: the JavaScript loops need only an ArrayBuffer.
    }
  }
  return createJsMemory(bytes);
}

/**
 * The JavaScript kernel: the same sums as the WebAssembly one, exact in doubles where
 * WebAssembly wraps in i32 (the true dot fits either way), then the same floating-point steps in
 * the same order: the same bits.
 */
function createJsMemory(bytes: number): KernelMemory {
  // Whole f64 views need a length that is a multiple of 8.
  const buffer = new ArrayBuffer(Math.ceil(bytes / 8) * 8);
  // Codes are read byte by byte: the pairs' byte order must not depend on the host's.
  const unsigned8 = new Uint8Array(buffer);
  const signed8 = new Int8Array(buffer);
  const lanes16 = new Int16Array(buffer);
  const floats64 = new Float64Array(buffer);
  const indexes32 = new Int32Array(buffer);
  /** See `$bounds` in the WebAssembly text. */
  const bounds = (
    dot: number,
    row: number,
    info: number,
    step: number,
    queryNorm: number,
    queryError: number,
    slack: number,
    upper: number,
    lower: number,
    tighten: boolean,
  ): void => {
    const at = (info >> 3) + row * 4;
    const estimate = dot * (step * floats64[at]!);
    const bound = queryNorm * floats64[at + 1]! + queryError * floats64[at + 2]! + slack;
    let high = estimate + bound + floats64[at + 3]!;
    let low = estimate - bound + floats64[at + 3]!;
    const upperAt = (upper >> 3) + row;
    const lowerAt = (lower >> 3) + row;
    if (tighten) {
      high = Math.min(high, floats64[upperAt]!);
      low = Math.max(low, floats64[lowerAt]!);
    }
    floats64[upperAt] = high;
    floats64[lowerAt] = low;
  };
  return {
    kind: 'js',
    buffer,
    scan(
      query,
      codes,
      count,
      stride,
      info,
      step,
      queryNorm,
      queryError,
      slack,
      offset,
      upper,
      lower,
    ) {
      // The query's lanes in pair order: x and (y − 256·x) of pair p.
      const pairs = stride >> 1;
      const xs = new Int32Array(pairs);
      const ys = new Int32Array(pairs);
      for (let pair = 0; pair < pairs; pair++) {
        const lane = (query >> 1) + (pair >> 3) * 16 + (pair & 7);
        xs[pair] = lanes16[lane]!;
        ys[pair] = lanes16[lane + 8]!;
      }
      for (let row = 0; row < count; row++) {
        const start = codes + row * stride;
        let a = 0;
        let b = 0;
        if (LITTLE_ENDIAN) {
          // A pair read as one 16-bit lane: (even + 128) + 256 · odd, and odd = lane >> 8.
          const first = start >> 1;
          for (let pair = 0; pair < pairs; pair += 2) {
            const u = lanes16[first + pair]!;
            const v = lanes16[first + pair + 1]!;
            a += u * xs[pair]! + (u >> 8) * ys[pair]!;
            b += v * xs[pair + 1]! + (v >> 8) * ys[pair + 1]!;
          }
        } else {
          for (let pair = 0; pair < pairs; pair++) {
            const odd = signed8[start + 2 * pair + 1]!;
            a += (unsigned8[start + 2 * pair]! + 256 * odd) * xs[pair]! + odd * ys[pair]!;
          }
        }
        bounds(a + b - offset, row, info, step, queryNorm, queryError, slack, upper, lower, false);
      }
    },
    refine(
      query,
      codes,
      stride,
      rows,
      count,
      info,
      step,
      queryNorm,
      queryError,
      slack,
      offset,
      upper,
      lower,
    ) {
      const lanes = query >> 1;
      for (let listed = 0; listed < count; listed++) {
        const row = indexes32[(rows >> 2) + listed]!;
        const start = codes + row * stride;
        let sum = 0;
        for (let block = 0; block < stride >> 4; block++) {
          const bytes = start + block * 16;
          const lane = lanes + block * 16;
          for (let j = 0; j < 8; j++) {
            sum +=
              unsigned8[bytes + 2 * j]! * lanes16[lane + j]! +
              signed8[bytes + 2 * j + 1]! * lanes16[lane + 8 + j]!;
          }
        }
        bounds(sum - offset, row, info, step, queryNorm, queryError, slack, upper, lower, true);
      }
    },
    select(values, count, wanted, heap) {
      const first = values >> 3;
      const top = heap >> 3;
      let size = 0;
      for (let index = 0; index < count; index++) {
        const value = floats64[first + index]!;
        if (size < wanted) {
          let at = size++;
          while (at > 0) {
            const parent = (at - 1) >> 1;
            const other = floats64[top + parent]!;
            if (other <= value) break;
            floats64[top + at] = other;
            at = parent;
          }
          floats64[top + at] = value;
        } else if (value > floats64[top]!) {
          let at = 0;
          for (;;) {
            let child = at * 2 + 1;
            if (child >= size) break;
            let other = floats64[top + child]!;
            if (child + 1 < size && floats64[top + child + 1]! < other) {
              child++;
              other = floats64[top + child]!;
            }
            if (other >= value) break;
            floats64[top + at] = other;
            at = child;
          }
          floats64[top + at] = value;
        }
      }
      return floats64[top]!;
    },
    collect(values, count, minimum, ceiling, out) {
      const first = values >> 3;
      const into = out >> 2;
      let found = 0;
      for (let index = 0; index < count; index++) {
        const value = floats64[first + index]!;
        if (value >= minimum && value < ceiling && value !== Number.NEGATIVE_INFINITY) {
          indexes32[into + found++] = index;
        }
      }
      return found;
    },
  };
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
