import { describe, expect, it } from 'vitest';
import { contentHash } from './content-hash';
import { dot } from './exact-dot';
import type { SimilarityKernelPreference } from './similarity-kernel';
import { type SimilarityHit, SimilarityScan } from './similarity-ranking';
import { toUnitVector, VectorCache } from './vector-cache';
import { VectorMatrix } from './vector-matrix';

/** A seeded generator (mulberry32): the same vectors on every run. */
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

function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

type VectorKind = 'gaussian' | 'uniform' | 'sparse' | 'skewed';

function vectorOf(kind: VectorKind, dimension: number, next: () => number): number[] {
  return Array.from({ length: dimension }, (_, i) => {
    if (kind === 'gaussian') return gaussian(next);
    if (kind === 'uniform') return next() - 0.5;
    // Mostly zeros: many exact ties at 0, and codes that use few levels.
    if (kind === 'sparse') return next() < 0.1 ? gaussian(next) : 0;
    // One huge component: a coarse scale for every other one, the worst case for the bounds.
    return i === 0 ? 50 * (next() + 1) : gaussian(next);
  });
}

interface Fixture {
  ids: string[];
  vectors: (Float32Array | undefined)[];
  cache: VectorCache;
  hashes: string[];
}

/**
 * `count` tools: random vectors, some duplicated under other ids (ties), a few zero vectors and,
 * with `missing`, a few without a vector at all.
 */
function fixture(options: {
  count: number;
  dimension: number;
  kind: VectorKind;
  seed: number;
  prefix?: string;
  missing?: boolean;
}): Fixture {
  const next = random(options.seed);
  const cache = new VectorCache();
  const ids: string[] = [];
  const hashes: string[] = [];
  const vectors: (Float32Array | undefined)[] = [];
  const made: number[][] = [];
  for (let row = 0; row < options.count; row++) {
    const id = `${options.prefix ?? 'tool'}_${(row * 7919) % options.count}`;
    const hash = contentHash(`${id} text`);
    ids.push(id);
    hashes.push(hash);
    const roll = next();
    if (options.missing && roll < 0.05) {
      vectors.push(undefined);
      continue;
    }
    const vector =
      roll < 0.1 && made.length > 0
        ? made[Math.floor(next() * made.length)]!
        : roll < 0.12
          ? new Array<number>(options.dimension).fill(0)
          : vectorOf(options.kind, options.dimension, next);
    made.push(vector);
    cache.set(hash, vector);
    vectors.push(cache.get(hash));
  }
  return { ids, vectors, cache, hashes };
}

function matrixOf(data: Fixture, kernel: SimilarityKernelPreference | 'wasm'): VectorMatrix {
  const matrix = new VectorMatrix({
    ids: data.ids,
    hashes: data.hashes,
    dimension: data.cache.dimension!,
    generation: data.cache.generation,
    kernel,
  });
  matrix.fill(data.cache, false);
  expect(matrix.kernel).toBe(kernel);
  return matrix;
}

/** The straightforward computation: every tool's dot product, sorted, cut. */
function reference(
  query: Float32Array,
  sets: readonly Fixture[],
  options: {
    depth: number;
    minSimilarity: number;
    filters?: readonly (((id: string) => boolean) | undefined)[];
  },
): SimilarityHit[] {
  const hits: SimilarityHit[] = [];
  for (const [position, data] of sets.entries()) {
    for (const [row, vector] of data.vectors.entries()) {
      if (!vector) continue;
      const id = data.ids[row]!;
      if (options.filters?.[position] && !options.filters[position](id)) continue;
      const score = dot(query, vector, vector.length);
      if (score >= options.minSimilarity) hits.push({ id, score });
    }
  }
  hits.sort((left, right) => right.score - left.score || (left.id < right.id ? -1 : 1));
  return hits.slice(0, Math.max(0, Math.floor(options.depth)));
}

const KERNELS = ['wasm', 'js'] as const;

describe('SimilarityScan', () => {
  const CASES = [
    [1, 1, 'gaussian', 301],
    [2, 3, 'uniform', 301],
    [3, 7, 'gaussian', 301],
    [4, 64, 'gaussian', 300],
    [5, 100, 'sparse', 300],
    [6, 300, 'gaussian', 300],
    [7, 130, 'skewed', 300],
    [8, 1536, 'uniform', 150],
  ] as const;

  it.each(
    KERNELS.flatMap((kernel) =>
      CASES.map(([seed, dimension, kind, count]) => ({ kernel, seed, dimension, kind, count })),
    ),
  )(
    'ranks exactly like computing every dot product ($kernel kernel, $dimension dimensions, $kind)',
    ({ kernel, seed, dimension, kind, count }) => {
      // An odd count with an odd dimension leaves the memory's length off any alignment.
      const data = fixture({ count, dimension, kind, seed, missing: true });
      const matrix = matrixOf(data, kernel);
      const next = random(seed + 100);
      for (let trial = 0; trial < 3; trial++) {
        const query = toUnitVector(vectorOf(trial === 2 ? 'sparse' : kind, dimension, next))!;
        const scan = new SimilarityScan(query, [matrix]);
        for (const depth of [1, 5, 100, 400]) {
          const options = { depth, minSimilarity: Number.NEGATIVE_INFINITY };
          expect(scan.rank(options)).toEqual(reference(query, [data], options));
        }
        const floor = { depth: 50, minSimilarity: 0.05 };
        expect(scan.rank(floor)).toEqual(reference(query, [data], floor));
      }
    },
  );

  it.each(KERNELS)('ranks two indexes as one, each with its filter (%s kernel)', (kernel) => {
    const own = fixture({ count: 200, dimension: 260, kind: 'gaussian', seed: 11 });
    const resolved = fixture({ count: 40, dimension: 260, kind: 'gaussian', seed: 12 });
    // The request's tools shadow static tools of the same id, as a session's filters do.
    const shadowed = new Set(resolved.ids);
    const filters = [(id: string) => !shadowed.has(id) && !id.endsWith('7'), undefined];
    const next = random(13);
    for (let trial = 0; trial < 4; trial++) {
      const query = toUnitVector(vectorOf('gaussian', 260, next))!;
      const scan = new SimilarityScan(query, [matrixOf(own, kernel), matrixOf(resolved, kernel)]);
      for (const depth of [3, 100, 300]) {
        const options = { depth, minSimilarity: Number.NEGATIVE_INFINITY, filters };
        expect(scan.rank(options)).toEqual(reference(query, [own, resolved], options));
      }
    }
  });

  it.each([32, 300])(
    'digs deeper when filters reject most of the best tools (%i dimensions)',
    (dimension) => {
      const data = fixture({ count: 2_000, dimension, kind: 'gaussian', seed: 21 });
      const query = toUnitVector(vectorOf('gaussian', dimension, random(22)))!;
      const best = new Set(
        reference(query, [data], { depth: 900, minSimilarity: -1 }).map((hit) => hit.id),
      );
      const options = { depth: 20, minSimilarity: -1, filters: [(id: string) => !best.has(id)] };
      const ranked = new SimilarityScan(query, [matrixOf(data, 'wasm')]).rank(options);
      expect(ranked).toHaveLength(20);
      expect(ranked).toEqual(reference(query, [data], options));
    },
  );

  it('stays exact when another search scanned the same matrix in between', () => {
    const data = fixture({ count: 500, dimension: 96, kind: 'gaussian', seed: 31 });
    const matrix = matrixOf(data, 'wasm');
    const next = random(32);
    const first = toUnitVector(vectorOf('gaussian', 96, next))!;
    const second = toUnitVector(vectorOf('gaussian', 96, next))!;
    const scan = new SimilarityScan(first, [matrix]);
    new SimilarityScan(second, [matrix]).rank({ depth: 10, minSimilarity: -1 });
    const options = { depth: 40, minSimilarity: -1 };
    expect(scan.rank(options)).toEqual(reference(first, [data], options));
  });

  it('ranks every tool equal, by id, for the zero query', () => {
    const data = fixture({ count: 300, dimension: 40, kind: 'gaussian', seed: 51, missing: true });
    const query = new Float32Array(40);
    const options = { depth: 120, minSimilarity: -1 };
    const ranked = new SimilarityScan(query, [matrixOf(data, 'wasm')]).rank(options);
    expect(ranked.every((hit) => hit.score === 0)).toBe(true);
    expect(ranked).toEqual(reference(query, [data], options));
  });

  it('ranks nothing for a query of another dimension, or a depth of 0', () => {
    const data = fixture({ count: 50, dimension: 8, kind: 'gaussian', seed: 41 });
    const matrix = matrixOf(data, 'wasm');
    const other = toUnitVector(vectorOf('gaussian', 9, random(42)))!;
    expect(new SimilarityScan(other, [matrix]).rank({ depth: 5, minSimilarity: -1 })).toEqual([]);
    const query = toUnitVector(vectorOf('gaussian', 8, random(43)))!;
    expect(new SimilarityScan(query, [matrix]).rank({ depth: 0, minSimilarity: -1 })).toEqual([]);
    expect(new SimilarityScan(query, [undefined]).rank({ depth: 5, minSimilarity: -1 })).toEqual(
      [],
    );
  });
});
