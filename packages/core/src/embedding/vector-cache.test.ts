import { describe, expect, it } from 'vitest';
import { contentHash } from './content-hash';
import { VectorCache } from './vector-cache';

const hash = (text: string) => contentHash(text);

describe('VectorCache', () => {
  it('keeps unit-length vectors by content hash, all of one dimension', () => {
    const cache = new VectorCache();
    expect(cache.dimension).toBeUndefined();
    cache.set(hash('a'), [3, 4]);
    expect([...cache.get(hash('a'))!]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    cache.set(hash('zero'), new Float32Array(2));
    expect([...cache.get(hash('zero'))!]).toEqual([0, 0]);
    expect(cache.dimension).toBe(2);
    expect(cache.size).toBe(2);
    expect(() => cache.set(hash('b'), [1, 2, 3])).toThrow(RangeError);
    expect(() => cache.set(hash('b'), [1, Number.NaN])).toThrow(TypeError);
    expect(() => cache.set(hash('b'), [1e200, 1e200])).toThrow(TypeError);
    expect(() => cache.set('not-a-hash', [1, 2])).toThrow(TypeError);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.dimension).toBeUndefined();
  });

  it('restores what it serialized, with the model and dimension checked', () => {
    const cache = new VectorCache({ model: 'text-embedding-3-small' });
    const vectors = Array.from({ length: 50 }, (_, row) =>
      Array.from({ length: 7 }, (_, column) => Math.sin(row * 7 + column + 1)),
    );
    for (const [row, vector] of vectors.entries()) cache.set(hash(`tool ${row}`), vector);
    const bytes = cache.serialize();

    const copy = new VectorCache({ model: 'text-embedding-3-small' });
    expect(copy.restore(bytes)).toBe(50);
    expect(copy.dimension).toBe(7);
    for (let row = 0; row < 50; row++) {
      expect([...copy.get(hash(`tool ${row}`))!]).toEqual([...cache.get(hash(`tool ${row}`))!]);
    }
    // Bytes at an odd offset inside a larger buffer read the same.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(new VectorCache({ model: 'text-embedding-3-small' }).restore(shifted.subarray(3))).toBe(
      50,
    );

    expect(new VectorCache({ model: 'other-model' }).restore(bytes)).toBe(0);
    expect(new VectorCache().restore(bytes)).toBe(0);
    const otherDimension = new VectorCache({ model: 'text-embedding-3-small' });
    otherDimension.set(hash('x'), [1, 2]);
    expect(otherDimension.restore(bytes)).toBe(0);
    expect(otherDimension.size).toBe(1);
  });

  it('round-trips an empty cache and a cache without a model', () => {
    const empty = new VectorCache().serialize();
    expect(new VectorCache().restore(empty)).toBe(0);
    const unnamed = new VectorCache();
    unnamed.set(hash('a'), [1, 0, 0]);
    expect(new VectorCache().restore(unnamed.serialize())).toBe(1);
    expect(new VectorCache({ model: '' }).restore(unnamed.serialize())).toBe(0);
  });

  it('refuses bytes that are not a vector cache, and is left unchanged', () => {
    const cache = new VectorCache();
    cache.set(hash('a'), [1, 0]);
    const bytes = cache.serialize();
    const target = new VectorCache();
    expect(() => target.restore(new Uint8Array(4))).toThrow(TypeError);
    expect(() => target.restore(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    const wrongVersion = bytes.slice();
    wrongVersion[4] = 99;
    expect(() => target.restore(wrongVersion)).toThrow(/version/);
    const nan = bytes.slice();
    new DataView(nan.buffer).setFloat32(nan.length - 4, Number.NaN, true);
    expect(() => target.restore(nan)).toThrow(/non-finite/);
    expect(() => target.restore('bytes' as unknown as Uint8Array)).toThrow(TypeError);
    expect(target.size).toBe(0);
  });
});
