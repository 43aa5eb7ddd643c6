import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import wabt from 'wabt';
import { contentHash } from './content-hash';
import { dot } from './exact-dot';
import { createKernelMemory, type SimilarityKernelPreference } from './similarity-kernel';
import { SIMILARITY_KERNEL_WASM } from './similarity-kernel-wasm';
import { toUnitVector, VectorCache } from './vector-cache';
import { EXACT_BATCH, VectorMatrix } from './vector-matrix';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A matrix of `count` random rows (some with one dominant component), and its vectors. */
function randomMatrix(
  count: number,
  dimension: number,
  kernel: SimilarityKernelPreference | 'wasm',
  seed: number,
) {
  const next = random(seed);
  const cache = new VectorCache();
  const ids: string[] = [];
  const hashes: string[] = [];
  for (let row = 0; row < count; row++) {
    const hash = contentHash(`row ${row}`);
    ids.push(`row_${row}`);
    hashes.push(hash);
    const skewed = row % 5 === 0;
    cache.set(
      hash,
      Array.from({ length: dimension }, (_, i) => (skewed && i === 0 ? 40 : next() - 0.5)),
    );
  }
  const matrix = new VectorMatrix({
    ids,
    hashes,
    dimension,
    generation: cache.generation,
    kernel,
  });
  matrix.fill(cache, false);
  const vectors = hashes.map((hash) => cache.get(hash)!);
  return { matrix, vectors, next };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the similarity kernel', () => {
  it('is built from the committed WebAssembly text (run build:wasm after editing it)', async () => {
    const source = readFileSync(
      new URL('../../wasm/similarity-kernel.wat', import.meta.url),
      'utf8',
    );
    const toolkit = await wabt();
    const module = toolkit.parseWat('similarity-kernel.wat', source, { simd: true });
    const { buffer } = module.toBinary({ log: false, write_debug_names: false });
    module.destroy();
    expect(Buffer.from(SIMILARITY_KERNEL_WASM, 'base64').equals(Buffer.from(buffer))).toBe(true);
  });

  it('runs WebAssembly SIMD under Node for large matrices, JavaScript for small ones or when asked', () => {
    expect(createKernelMemory(1_000_000, 'auto').kind).toBe('wasm');
    expect(createKernelMemory(1_000, 'auto').kind).toBe('js');
    expect(createKernelMemory(1_000, 'wasm').kind).toBe('wasm');
    expect(createKernelMemory(1_000_000, 'js').kind).toBe('js');
  });

  it('falls back to JavaScript without WebAssembly', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    const kernel = await import('./similarity-kernel');
    expect(kernel.createKernelMemory(1_000_000, 'auto').kind).toBe('js');
  });

  it('falls back to JavaScript when the module does not compile (no SIMD, or forbidden)', async () => {
    const real = (globalThis as unknown as { WebAssembly: { Memory: unknown; Instance: unknown } })
      .WebAssembly;
    vi.stubGlobal('WebAssembly', {
      Module: class {
        constructor() {
          throw new Error(
            'WebAssembly.Module(): Compiling function #0 failed: invalid simd opcode',
          );
        }
      },
      Memory: real.Memory,
      Instance: real.Instance,
    });
    vi.resetModules();
    const kernel = await import('./similarity-kernel');
    expect(kernel.createKernelMemory(1_000_000, 'auto').kind).toBe('js');
  });

  it('computes the same bounds in both kernels, and every exact score lies within them', () => {
    for (const dimension of [1, 5, 31, 32, 33, 200, 1536]) {
      const wasm = randomMatrix(200, dimension, 'wasm', dimension);
      const js = randomMatrix(200, dimension, 'js', dimension);
      expect(wasm.matrix.kernel).toBe('wasm');
      expect(js.matrix.kernel).toBe('js');
      for (let trial = 0; trial < 3; trial++) {
        const query = toUnitVector(
          Array.from({ length: dimension }, (_, i) =>
            trial === 2 && i > 0 ? 0 : wasm.next() - 0.5,
          ),
        )!;
        wasm.matrix.scan(query);
        js.matrix.scan(query);
        expect([...wasm.matrix.upper]).toEqual([...js.matrix.upper]);
        expect([...wasm.matrix.lower]).toEqual([...js.matrix.lower]);
        const outside = wasm.vectors.filter((vector, row) => {
          const exact = dot(query, vector, dimension);
          return !(wasm.matrix.lower[row]! <= exact && exact <= wasm.matrix.upper[row]!);
        });
        expect(outside).toEqual([]);
      }
    }
  });

  it('re-ranks in WebAssembly to the same bits as the JavaScript dot', () => {
    for (const dimension of [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 64, 383, 1536]) {
      const { matrix, vectors, next } = randomMatrix(EXACT_BATCH, dimension, 'wasm', dimension);
      const query = toUnitVector(Array.from({ length: dimension }, () => next() - 0.5))!;
      const rows = vectors.map((_, row) => row);
      const scores = new Float64Array(EXACT_BATCH);
      matrix.exact(query, rows, scores);
      expect([...scores]).toEqual(vectors.map((vector) => dot(query, vector, dimension)));
    }
  });

  it('sums the dot product like a plain loop, up to rounding', () => {
    const next = random(7);
    for (const dimension of [1, 3, 4, 7, 100]) {
      const left = new Float32Array(dimension).map(() => next() - 0.5);
      const right = new Float32Array(dimension).map(() => next() - 0.5);
      let plain = 0;
      for (let i = 0; i < dimension; i++) plain += left[i]! * right[i]!;
      expect(dot(left, right, dimension)).toBeCloseTo(plain, 12);
    }
  });

  it('holds a matrix in memory of a fixed size: about five bytes per dimension plus 60 per tool', () => {
    const { matrix } = randomMatrix(2_000, 384, 'js', 3);
    // Per tool: the vector (4 bytes a dimension), 384 bytes of codes, 32 of row info, 16 of
    // bounds, 12 for selecting candidates; once: the query (two sets of lanes, and f64) and
    // one batch of rows to re-rank.
    const perTool = 384 * 4 + 384 + 32 + 16 + 12;
    const fixed = 384 * 2 * 2 + 384 * 8 + EXACT_BATCH * (4 + 8) + 11 * 64;
    expect(matrix.byteLength).toBeLessThanOrEqual(2_000 * perTool + fixed);
    expect(matrix.byteLength).toBeGreaterThanOrEqual(2_000 * perTool);
  });

  it('lets the cache share the matrix’s copy of each vector, unchanged', () => {
    const cache = new VectorCache({ model: 'm' });
    const hashes = [0, 1, 2].map((row) => contentHash(`text ${row}`));
    hashes.forEach((hash, row) => {
      cache.set(hash, [row + 1, -row, 0.5]);
    });
    const before = cache.serialize();
    const version = cache.version;
    const originals = hashes.map((hash) => cache.get(hash)!);
    const matrix = new VectorMatrix({
      ids: ['a', 'b', 'c'],
      hashes,
      dimension: 3,
      generation: cache.generation,
      kernel: 'wasm',
    });
    matrix.fill(cache, true);
    for (const [row, hash] of hashes.entries()) {
      const shared = cache.get(hash)!;
      expect(shared).not.toBe(originals[row]);
      expect([...shared]).toEqual([...originals[row]!]);
    }
    expect(cache.version).toBe(version);
    expect(cache.serialize()).toEqual(before);
  });
});
