import { describe, expect, it } from 'vitest';
import { stem } from './stemmer';

describe('stem', () => {
  it.each([
    ['issues', 'issu'],
    ['issue', 'issu'],
    ['cities', 'city'],
    ['messages', 'messag'],
    ['running', 'run'],
    ['installed', 'install'],
    ['updating', 'updat'],
    ['status', 'status'],
    ['address', 'address'],
    ['string', 'string'],
    ['employees', 'employee'],
  ])('stems %s to %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('leaves short words and non-ASCII words alone', () => {
    expect(stem('gas')).toBe('gas');
    expect(stem('café')).toBe('café');
  });
});
