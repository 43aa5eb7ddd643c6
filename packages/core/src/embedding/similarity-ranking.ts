import { TopK } from '../search/top-k';
import type { VectorRows } from './tool-embeddings';

/** A tool and its cosine similarity to the query. */
export interface SimilarityHit {
  id: string;
  score: number;
}

/**
 * The `depth` tools most similar to the query, best first (ties by id), over several indexes'
 * vectors. Vectors are unit length, so the dot product is the cosine similarity.
 * @param query - the query's unit vector
 * @param rows - per index, the tools that have vectors
 * @param options - how many to keep, the similarity floor, and per index a filter (shadowing)
 */
export function rankBySimilarity(
  query: Float32Array,
  rows: readonly VectorRows[],
  options: {
    depth: number;
    minSimilarity: number;
    filters?: readonly (((id: string) => boolean) | undefined)[];
  },
): SimilarityHit[] {
  const top = new TopK<SimilarityHit>(options.depth);
  const dimension = query.length;
  for (const [position, { ids, vectors }] of rows.entries()) {
    const filter = options.filters?.[position];
    for (let row = 0; row < vectors.length; row++) {
      const vector = vectors[row]!;
      if (vector.length !== dimension) continue;
      const score = dot(query, vector, dimension);
      if (!(score >= options.minSimilarity)) continue;
      const id = ids[row]!;
      if (!top.accepts(score, id) || (filter && !filter(id))) continue;
      top.push({ id, score });
    }
  }
  return top.sorted();
}

/** The dot product, four lanes at a time: a plain loop leaves most of V8's speed unused. */
function dot(left: Float32Array, right: Float32Array, length: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (const end = length - 3; i < end; i += 4) {
    a += left[i]! * right[i]!;
    b += left[i + 1]! * right[i + 1]!;
    c += left[i + 2]! * right[i + 2]!;
    d += left[i + 3]! * right[i + 3]!;
  }
  for (; i < length; i++) a += left[i]! * right[i]!;
  return a + b + c + d;
}
