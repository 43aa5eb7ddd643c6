import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isToolAllowed, matchesGlob } from './glob';

describe('matchesGlob', () => {
  it.each([
    ['write_*', 'write_file', true],
    ['write_*', 'read_file', false],
    ['*_file', 'write_file', true],
    ['*file*', 'list_files_now', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['*', '', true],
    ['echo', 'echo', true],
    ['echo', 'Echo', false],
    ['get.*', 'get.user', true],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });

  it('matches a name against itself and against any star-split of itself', () => {
    fc.assert(
      fc.property(
        fc.string().filter((name) => !name.includes('*')),
        fc.nat(),
        (name, cut) => {
          const at = name.length === 0 ? 0 : cut % name.length;
          expect(matchesGlob(name, name)).toBe(true);
          expect(matchesGlob(`${name.slice(0, at)}*${name.slice(at)}`, name)).toBe(true);
          expect(matchesGlob('*', name)).toBe(true);
        },
      ),
    );
  });
});

describe('isToolAllowed', () => {
  it('lets denyTools win over allowTools', () => {
    const rules = { allowTools: ['*_file'], denyTools: ['write_*'] };
    expect(isToolAllowed(rules, 'read_file')).toBe(true);
    expect(isToolAllowed(rules, 'write_file')).toBe(false);
    expect(isToolAllowed(rules, 'search')).toBe(false);
    expect(isToolAllowed({}, 'anything')).toBe(true);
  });
});
