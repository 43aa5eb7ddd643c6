import { createJavaScriptKernel, LITTLE_ENDIAN } from './javascript-kernel';
import type { KernelMemory } from './kernel-memory';
import { SIMILARITY_KERNEL_WASM } from './similarity-kernel-wasm';

/**
 * Which code computes similarities: `'auto'` uses WebAssembly SIMD where the runtime allows it
 * (and plain JavaScript where it does not); `'js'` always uses JavaScript. Both rank identically.
 */
export type SimilarityKernelPreference = 'auto' | 'js';

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
