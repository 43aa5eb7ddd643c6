import { createJavaScriptKernel, LITTLE_ENDIAN } from './javascript-kernel';
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
  return createJavaScriptKernel(bytes);
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
