import type { KernelMemory } from './kernel-memory';

/** Whether this host stores numbers little-endian, as WebAssembly memory does. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * @internal The JavaScript kernel: the same sums as the WebAssembly one, exact in doubles where
 * WebAssembly wraps in i32 (the true dot fits either way), then the same floating-point steps in
 * the same order: the same bits.
 */
export function createJavaScriptKernel(bytes: number): KernelMemory {
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
