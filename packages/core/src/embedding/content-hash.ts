import { finalMix } from '../search/tool-content-hash';

/**
 * MurmurHash3's x86 128-bit variant (Austin Appleby, SMHasher, public domain), over the UTF-8
 * bytes of a text. Not cryptographic: it names cached vectors by their text, where 128 bits make
 * an accidental collision among millions of tool texts vanishingly unlikely, and it runs the same
 * everywhere JavaScript runs (no `node:crypto`, no async `crypto.subtle`).
 */
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

const encoder = new TextEncoder();

/**
 * The content hash of a text, as 32 hex digits (MurmurHash3 x86 128, seed 0, of its UTF-8 bytes).
 * @param text - any string; lone surrogates are encoded as U+FFFD, as `TextEncoder` does
 */
export function contentHash(text: string): string {
  const bytes = encoder.encode(text);
  const length = bytes.length;
  const blocks = length >>> 4;
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  for (let block = 0; block < blocks; block++) {
    const offset = block << 4;
    let k1 = readUint32(bytes, offset);
    let k2 = readUint32(bytes, offset + 4);
    let k3 = readUint32(bytes, offset + 8);
    let k4 = readUint32(bytes, offset + 12);

    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }

  // The 0 to 15 bytes after the last whole block, as up to four partial little-endian words.
  const tail = blocks << 4;
  const rest = length & 15;
  const k = [0, 0, 0, 0];
  for (let position = rest - 1; position >= 0; position--) {
    const word = position >>> 2;
    k[word] = k[word]! ^ (bytes[tail + position]! << ((position & 3) << 3));
  }
  if (rest > 12) h4 ^= Math.imul(rotl(Math.imul(k[3]!, C4), 18), C1);
  if (rest > 8) h3 ^= Math.imul(rotl(Math.imul(k[2]!, C3), 17), C4);
  if (rest > 4) h2 ^= Math.imul(rotl(Math.imul(k[1]!, C2), 16), C3);
  if (rest > 0) h1 ^= Math.imul(rotl(Math.imul(k[0]!, C1), 15), C2);

  h1 ^= length;
  h2 ^= length;
  h3 ^= length;
  h4 ^= length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = finalMix(h1);
  h2 = finalMix(h2);
  h3 = finalMix(h3);
  h4 = finalMix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return hex(h1) + hex(h2) + hex(h3) + hex(h4);
}

function readUint32(bytes: Uint8Array, offset: number): number {
  return (
    bytes[offset]! |
    (bytes[offset + 1]! << 8) |
    (bytes[offset + 2]! << 16) |
    (bytes[offset + 3]! << 24)
  );
}

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
