import fc from 'fast-check';
import { propertyRuns } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { WorkBudget } from '../work-budget';
import { compilePattern, MAX_PROGRAM_SIZE } from './linear-pattern';

const budget = () => new WorkBudget(10_000_000);

/** Patterns and texts on which the runtime's own engine is the reference. */
const TABLE: [string, string[]][] = [
  ['^(a+)+$', ['aaaa', 'aaa!', '', 'a']],
  ['abc', ['xxabcx', 'ab', 'abc']],
  ['^[a-z]+\\d*$', ['abc12', 'ab1c', '1']],
  ['\\bfoo\\b', ['a foo b', 'afoo', 'foo']],
  ['\\Bb', ['ab', 'b', ' b']],
  ['^\\p{L}+$', ['héllo', 'h3', 'Ωμέγα']],
  ['^\\p{Script=Greek}$', ['Ω', 'a']],
  ['^.{2,3}$', ['ab', 'abcd', 'a\nb', '😀😀', 'a\u2028']],
  ['^(?:x|y){2}z?$', ['xy', 'xyz', 'xyzz', 'x']],
  ['^\\u{1F600}$', ['😀', 'a']],
  ['^\\uD83D\\uDE00$', ['😀', '\uD83D']],
  ['^[^]$', ['\n', 'ab']],
  ['^(a|ab)(c|bcd)(d*)$', ['abcd', 'abcdd', 'ac']],
  ['^\\d{3}-\\d{4}$', ['555-1234', '55-1234']],
  ['^$', ['', 'a']],
  ['$', ['', 'abc']],
  ['(?<year>\\d{4})', ['in 2024', 'no']],
  ['^(a*)*$', ['aaa', 'aab', '']],
  ['^\\s*\\S+\\s*$', ['  x ', '\u00a0x\u2028', 'x y']],
  ['^[\\w.-]+@[\\w-]+\\.\\w{2,}$', ['a.b@c.de', 'a@b']],
  ['^\\x41\\cJ\\0\\.\\/$', ['A\n\0./', 'A\n\0x/']],
  ['^a{0}b$', ['b', 'ab']],
  ['^(?:ab){2,}?$', ['abab', 'ab', 'ababab']],
  ['[\\]\\-]', ['-', ']', 'a']],
  ['^[😀-😂]$', ['😁', '😃']],
];

describe('compilePattern', () => {
  it('matches as the runtime does, on a table of constructs', () => {
    for (const [source, texts] of TABLE) {
      const pattern = compilePattern(source);
      const native = new RegExp(source, 'u');
      for (const text of texts) {
        expect({ source, text, matches: pattern.test(text, budget()) }).toEqual({
          source,
          text,
          matches: native.test(text),
        });
      }
    }
  });

  it('refuses what a finite automaton cannot match, and patterns the runtime rejects', () => {
    const refused: [string, RegExp][] = [
      ['(?=a)', /lookahead/],
      ['(?!a)b', /lookahead/],
      ['(?<=a)b', /lookbehind/],
      ['(a)\\1', /backreference/],
      ['(?<n>a)\\k<n>', /backreference/],
      // Inline modifiers are new (ES2025): a runtime without them rejects the pattern.
      ['(?i:a)', /modifier|not a valid/],
      ['(', /not a valid/],
      ['a{1001}', /1000/],
      ['(?:(?:a{1000}){1000})', new RegExp(`${MAX_PROGRAM_SIZE}`)],
    ];
    for (const [source, reason] of refused)
      expect(() => compilePattern(source), source).toThrow(reason);
  });

  it('answers a backtracking pattern in steps linear in the text', () => {
    const pattern = compilePattern('^(a+)+$');
    for (const length of [1_000, 10_000, 100_000]) {
      const spent = new WorkBudget(10_000_000);
      expect(pattern.test(`${'a'.repeat(length)}!`, spent)).toBe(false);
      // At most (length + 1) × program size; in fact a few threads per character.
      expect(spent.spent).toBeLessThanOrEqual((length + 2) * pattern.size);
      expect(spent.spent).toBeGreaterThan(length);
    }
  });

  it('stops when the budget runs out, and answers the next test correctly', () => {
    const pattern = compilePattern('(a|b)*c');
    const small = new WorkBudget(100);
    expect(() => pattern.test('ab'.repeat(1_000), small)).toThrow(/steps/);
    expect(pattern.test('abababc', budget())).toBe(true);
    expect(pattern.test('ababab', budget())).toBe(false);
  });

  it('agrees with the runtime on random patterns and texts', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      '.',
      '[ab]',
      '[^a]',
      '\\d',
      '\\w',
      '\\s',
      '(?:ab)',
      '(a|b)',
      'x',
    );
    const quantifier = fc.constantFrom('', '*', '+', '?', '{2}', '{1,2}', '{0,}', '*?');
    const term = fc.tuple(atom, quantifier).map(([a, q]) => a + q);
    const branch = fc.array(term, { minLength: 0, maxLength: 4 }).map((terms) => terms.join(''));
    const pattern = fc
      .tuple(fc.boolean(), fc.array(branch, { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(
        ([start, branches, end]) => `${start ? '^' : ''}(?:${branches.join('|')})${end ? '$' : ''}`,
      );
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'x', '1', ' ', '\n', 'é'),
      maxLength: 10,
    });
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 5 }), (source, texts) => {
        const compiled = compilePattern(source);
        const native = new RegExp(source, 'u');
        for (const candidate of texts)
          expect(compiled.test(candidate, budget())).toBe(native.test(candidate));
      }),
      propertyRuns('linear pattern against RegExp', 500),
    );
  }, 60_000);
});
