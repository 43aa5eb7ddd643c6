import type { KernelMemory } from './similarity-kernel';

/** Whether this host stores numbers little-endian, as WebAssembly memory does. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * @internal The JavaScript kernel: selection and collection over the matrix's bounds, the same
 * loops as the WebAssembly ones.
 */
export function createJavaScriptKernel(bytes: number): KernelMemory {
  // Whole f64 views need a length that is a multiple of 8.
  const buffer = new ArrayBuffer(Math.ceil(bytes / 8) * 8);
  const floats64 = new Float64Array(buffer);
  const indexes32 = new Int32Array(buffer);
  return {
    kind: 'js',
    buffer,
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
