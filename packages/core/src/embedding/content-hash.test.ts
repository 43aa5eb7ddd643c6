import { describe, expect, it } from 'vitest';
import { contentHash } from './content-hash';

describe('contentHash', () => {
  it('is MurmurHash3 x86 128 of the UTF-8 bytes', () => {
    // Expected values computed with an independent implementation (murmurhash3js-revisited 3.0.0).
    expect(contentHash('')).toBe('00000000000000000000000000000000');
    expect(contentHash('hello')).toBe('2b2444a0db91def79adb31b69adb31b6');
    expect(contentHash('My hovercraft is full of eels.')).toBe('e3a186aee169ba6c6a8bd9343c68fa9c');
    expect(contentHash('get weather: Current weather for a city')).toBe(
      '78e3ed6ad9688719ca34e2f4e5885eea',
    );
    expect(contentHash('天气预报 für Zürich 🌧️')).toBe('eb19fe6cf26c90edcbb57d8179d3bba0');
  });

  it('gives distinct hashes to distinct texts of every tail length', () => {
    const texts = new Set<string>();
    for (let length = 0; length < 64; length++) {
      for (const letter of 'abcxyz') texts.add(letter.repeat(length));
      texts.add(`tool_${length}`);
    }
    for (let n = 0; n < 3_000; n++) texts.add(`get_weather_${n}: forecast for city ${n % 97}`);
    const hashes = new Set([...texts].map(contentHash));
    expect(hashes.size).toBe(texts.size);
    for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{32}$/);
  });
});
