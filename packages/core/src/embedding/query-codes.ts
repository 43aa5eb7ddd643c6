/** Even codes are stored plus this, as an unsigned byte (see the kernel's pair trick). */
export const EVEN_OFFSET = 128;

/** A query quantized for the kernel: its step, error norm and the pair trick's offset. */
export interface QueryCodes {
  step: number;
  error: number;
  offset: number;
}

/**
 * @internal Writes a query's codes (|code| ≤ `limit`, one step for all) into `lanes`: for the
 * scan (`forScan`: per 16 codes, eight `x` then eight `y − 256·x`, for the pairs (x, y) of even
 * and odd codes) or for the refinement (eight even codes, then eight odd ones).
 * @returns the step, the norm of what the codes leave out, and the offset `128 · Σ x` the kernel
 *   subtracts
 */
export function encodeQuery(
  lanes: Int16Array,
  query: Float32Array,
  options: { dimension: number; largest: number; limit: number; forScan: boolean },
): QueryCodes {
  const { dimension, largest, limit, forScan } = options;
  const step = largest > 0 ? largest / limit : 0;
  let errorSquares = 0;
  let evenSum = 0;
  lanes.fill(0);
  for (let i = 0; i < dimension; i += 2) {
    const even = step > 0 ? clamp(Math.round(query[i]! / step), limit) : 0;
    const odd = i + 1 < dimension && step > 0 ? clamp(Math.round(query[i + 1]! / step), limit) : 0;
    const errorEven = query[i]! - even * step;
    errorSquares += errorEven * errorEven;
    if (i + 1 < dimension) {
      const errorOdd = query[i + 1]! - odd * step;
      errorSquares += errorOdd * errorOdd;
    }
    evenSum += even;
    // Pair p of a 16-code block sits at lane p of its 16-lane group.
    const pair = i >> 1;
    const at = (pair >> 3) * 16 + (pair & 7);
    lanes[at] = even;
    lanes[at + 8] = forScan ? odd - 256 * even : odd;
  }
  return { step, error: Math.sqrt(errorSquares), offset: EVEN_OFFSET * evenSum };
}

/** `code` limited to [-limit, limit]. */
export function clamp(code: number, limit: number): number {
  return Math.min(limit, Math.max(-limit, code));
}
