import { hostileArgumentCases } from 'tool-search-testing/hostile-schemas';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECK_STEPS, SchemaChecker } from './schema-checker';

/** What each expected answer is, in the checker's words. */
const KIND = { refused: 'invalid', unchecked: 'unchecked', valid: 'valid' } as const;

describe('SchemaChecker under hostile schemas and arguments', () => {
  // Built once: several cases are megabytes.
  const cases = hostileArgumentCases();

  for (const hostile of cases) {
    it(`answers within its step budget: ${hostile.name}`, () => {
      const checker = new SchemaChecker(hostile.schema);
      const result = checker.check(hostile.args);
      expect(result.kind).toBe(KIND[hostile.expected]);
      expect(result.steps).toBeLessThanOrEqual(DEFAULT_CHECK_STEPS);
      // The same again: caches (compiled patterns, `enum` sets) change no answer.
      expect(checker.check(hostile.args).kind).toBe(result.kind);
    }, 30_000);
  }

  it('stops every form at a smaller budget too, with a refusal', () => {
    for (const hostile of cases) {
      const result = new SchemaChecker(hostile.schema).check(hostile.args, { maxSteps: 50 });
      expect(result.steps, hostile.name).toBeLessThanOrEqual(50);
      if (result.kind === 'invalid') {
        expect(['mismatch', 'too-costly', 'too-deep'], hostile.name).toContain(result.reason);
      } else expect(result.steps, hostile.name).toBeLessThan(50);
    }
  }, 30_000);
});
