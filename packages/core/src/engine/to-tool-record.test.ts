import { describe, expect, it } from 'vitest';
import { toToolRecord } from './to-tool-record';

describe('toToolRecord', () => {
  it('stores __proto__ and constructor as own tools and keeps the prototype', () => {
    const record = toToolRecord([
      ['__proto__', 1],
      ['constructor', 2],
      ['a', 3],
    ]);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.entries(record)).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
      ['a', 3],
    ]);
  });
});
