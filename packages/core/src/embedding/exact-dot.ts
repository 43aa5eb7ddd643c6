/**
 * The dot product in double precision, with eight running sums (lane i mod 8; the last
 * `length % 8` products go to the first) added pairwise at the end: more sums keep more additions
 * in flight. The WebAssembly `exact` sums in exactly this order, so both give the same bits.
 */
export function dot(left: Float32Array, right: Float32Array, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  let i = 0;
  for (const end = length - 7; i < end; i += 8) {
    s0 += left[i]! * right[i]!;
    s1 += left[i + 1]! * right[i + 1]!;
    s2 += left[i + 2]! * right[i + 2]!;
    s3 += left[i + 3]! * right[i + 3]!;
    s4 += left[i + 4]! * right[i + 4]!;
    s5 += left[i + 5]! * right[i + 5]!;
    s6 += left[i + 6]! * right[i + 6]!;
    s7 += left[i + 7]! * right[i + 7]!;
  }
  for (; i < length; i++) s0 += left[i]! * right[i]!;
  return s0 + s1 + (s2 + s3) + (s4 + s5 + (s6 + s7));
}
