import { isJsonObject, KeyIndex } from './json-values';
import { readSchemaDocument, type SchemaDocument, SchemaTooLarge } from './schema-document';
import { EvaluationTooDeep, SchemaCaches, SchemaEvaluator } from './schema-evaluator';
import { FAILS, HOLDS, type Issue, toPointer } from './schema-outcome';
import { WorkBudget, WorkBudgetExhausted } from './work-budget';

/** A problem or an unchecked part, at a JSON Pointer into the value checked. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** What checking a value against a schema found, and the steps it took. */
export type SchemaCheckResult = { steps: number } & (
  | { kind: 'valid' }
  /** `reason` says why: the value breaks the schema, or was too costly or too deep to check. */
  | {
      kind: 'invalid';
      reason: 'mismatch' | 'too-costly' | 'too-deep' | 'not-json';
      problems: SchemaIssue[];
    }
  /** Nothing failed, but these parts could not be checked (the schema cannot be, there). */
  | { kind: 'unchecked'; parts: SchemaIssue[] }
);

/** Options of one check. */
export interface SchemaCheckOptions {
  /**
   * The steps the check may take; past them it stops and the value is refused.
   * @default DEFAULT_CHECK_STEPS
   */
  maxSteps?: number;
}

/**
 * The steps one check may take by default. On the 2-core development machine the costliest kinds
 * of step (pattern matching, comparing `enum` objects, hashing items, evaluating schemas) take
 * 15 to 40 ns each, so a check that uses them all up stops within about 40 ms; an ordinary call
 * takes a few hundred steps, and 40,000 distinct `uniqueItems` take 400,000.
 */
export const DEFAULT_CHECK_STEPS = 1_000_000;

/**
 * How deep a value may nest to be checked (the MCP gateway refuses deeper arguments too):
 * deeper than any tool's schema goes, shallow enough that no walk runs out of stack.
 */
export const MAX_CHECK_DEPTH = 256;

/** Steps for looking at one node of the value before the check (its type, its depth). */
const INSPECTION_STEPS = 2;

/**
 * A schema ready to check values against, in bounded time: each check spends from a budget of
 * steps and stops when it runs out, patterns and formats run on a linear-time matcher,
 * `uniqueItems` is one hash lookup per item, and what a `$ref` gives for a value is remembered.
 * Made once per schema and kept (compiled patterns and `enum` lookups are cached in it).
 */
export class SchemaChecker {
  private readonly document: SchemaDocument | undefined;
  private readonly unreadable: string | undefined;
  private readonly caches = new SchemaCaches();
  private readonly tracksAnnotations: boolean;

  /** @param schema - a JSON Schema (drafts 4, 6, 7, 2019-09, 2020-12) */
  constructor(schema: unknown) {
    let document: SchemaDocument | undefined;
    try {
      document = readSchemaDocument(schema);
    } catch (error) {
      if (!(error instanceof SchemaTooLarge)) throw error;
      this.unreadable = error.message;
    }
    this.document = document;
    this.tracksAnnotations = document?.usesUnevaluated ?? false;
  }

  /**
   * Checks a value.
   * @param value - the value (a tool call's arguments)
   * @param options - the step budget
   */
  check(value: unknown, options: SchemaCheckOptions = {}): SchemaCheckResult {
    const budget = new WorkBudget(options.maxSteps ?? DEFAULT_CHECK_STEPS);
    if (this.document === undefined) {
      return { kind: 'unchecked', steps: 0, parts: [{ path: '', message: this.unreadable ?? '' }] };
    }
    try {
      const keys = new KeyIndex(budget);
      const shape = inspectValue(value, keys);
      if (shape !== undefined) return { ...shape, steps: budget.spent };
      const evaluator = new SchemaEvaluator(
        this.document,
        keys,
        this.caches,
        this.tracksAnnotations,
      );
      const outcome = evaluator.evaluate(this.document.root, this.document.rootBase, value, 0);
      const steps = budget.spent;
      if (outcome.status === HOLDS) return { kind: 'valid', steps };
      if (outcome.status === FAILS) {
        return {
          kind: 'invalid',
          reason: 'mismatch',
          steps,
          problems: outcome.errors.map(toIssue),
        };
      }
      return { kind: 'unchecked', steps, parts: outcome.unknowns.map(toIssue) };
    } catch (error) {
      const steps = budget.spent;
      if (error instanceof WorkBudgetExhausted) {
        return { kind: 'invalid', reason: 'too-costly', steps, problems: [] };
      }
      // The stack is the runtime's, not ours to size: running out of it is a value too deep.
      if (error instanceof EvaluationTooDeep || error instanceof RangeError) {
        return { kind: 'invalid', reason: 'too-deep', steps, problems: [] };
      }
      throw error;
    }
  }
}

function toIssue(issue: Issue): SchemaIssue {
  return { path: toPointer(issue.path), message: issue.message };
}

/**
 * Walks the value once, without recursion: refuses one nested deeper than {@link MAX_CHECK_DEPTH}
 * or holding what JSON cannot (a function, a `bigint`, `NaN`, an array hole), so that everything
 * after it may recurse by the value's depth and meet only JSON.
 */
function inspectValue(
  value: unknown,
  keys: KeyIndex,
): Extract<SchemaCheckResult, { kind: 'invalid' }> | undefined {
  const budget = keys.budget;
  // Two stacks side by side, so that a node costs no allocation.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()!;
    budget.spend(INSPECTION_STEPS);
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (Number.isFinite(item)) continue;
      return notJson(`The number ${item} is not JSON.`);
    }
    if (typeof item !== 'object') return notJson(`A value of type ${typeof item} is not JSON.`);
    if (depth >= MAX_CHECK_DEPTH)
      return { kind: 'invalid', reason: 'too-deep', steps: 0, problems: [] };
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        if (item[index] === undefined)
          return notJson('An array holds a value that is not JSON (undefined).');
        values.push(item[index]);
        depths.push(depth + 1);
      }
    } else if (isJsonObject(item)) {
      for (const key of keys.keysOf(item)) {
        values.push(item[key]);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

function notJson(message: string): Extract<SchemaCheckResult, { kind: 'invalid' }> {
  return { kind: 'invalid', reason: 'not-json', steps: 0, problems: [{ path: '', message }] };
}
