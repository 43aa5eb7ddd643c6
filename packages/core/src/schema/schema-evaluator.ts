import { checkCombinators } from './combinator-keywords';
import { checkArrayKeywords, checkObjectKeywords, checkUnevaluated } from './container-keywords';
import type { EnumValues, EvaluationContext } from './evaluation-context';
import { isJsonObject, type JsonObject, type KeyIndex, previewJson } from './json-values';
import { compilePattern, type LinearPattern, UnsupportedPattern } from './pattern/linear-pattern';
import type { SchemaDocument } from './schema-document';
import { FAILS, type Outcome, OutcomeBuilder, UNKNOWN, VALID } from './schema-outcome';
import { checkValueKeywords } from './value-keywords';
import type { WorkBudget } from './work-budget';

/**
 * Applies a schema to a value, keyword by keyword, spending from a budget at every step. The
 * in-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`) combine
 * three-valued outcomes, so a part that cannot be checked (a remote `$ref`, a pattern with a
 * lookahead) leaves only itself undecided: `not` of an unknown is unknown, `anyOf` holds if any
 * branch holds. What a `$ref` target gives for a value is remembered for that value, which
 * keeps combinators over recursive schemas (a `oneOf` of two `$ref`s to the same definition, at
 * every level of a nested argument) polynomial instead of exponential, and turns a reference
 * cycle that reads no deeper into the arguments into an unknown instead of endless recursion.
 */

/** Which groups of keywords a schema object has, read once: most schemas use few of them. */
interface SchemaShape {
  readonly base: string;
  readonly keywords: number;
  readonly values: boolean;
  readonly arrays: boolean;
  readonly objects: boolean;
  readonly combinators: boolean;
}

const VALUE_KEYWORDS = [
  'type',
  'enum',
  'const',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'format',
];
const ARRAY_KEYWORDS = ['maxItems', 'minItems', 'uniqueItems', 'prefixItems', 'items', 'contains'];
const OBJECT_KEYWORDS = [
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
];
const COMBINATOR_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'not', 'if'];

/** Caches that live as long as the tool's schema: shapes, compiled patterns, `enum` lookups. */
export class SchemaCaches {
  readonly shapes = new WeakMap<object, SchemaShape>();
  readonly patterns = new Map<string, LinearPattern | string>();
  readonly enums = new WeakMap<unknown[], EnumValues>();
}

/**
 * Steps for applying one schema object to one value, besides one per keyword it has: measured at
 * up to 300 ns on the development machine (a call, an outcome, the groups of keywords).
 */
const EVALUATION_STEPS = 10;

/** Nested evaluations at most (values and in-place schemas together): far beyond the stack a real schema needs. */
export const MAX_NESTED_EVALUATIONS = 2_000;

/** Thrown when the evaluation nests deeper than {@link MAX_NESTED_EVALUATIONS}. */
export class EvaluationTooDeep extends Error {
  constructor() {
    super('The check nests too deeply.');
    this.name = 'EvaluationTooDeep';
  }
}

/** A `$ref` target being evaluated for a value right now: reaching it again is a cycle. */
const IN_PROGRESS = null;

/** One check of one value against a document: its budget, its memo. */
export class SchemaEvaluator implements EvaluationContext {
  readonly document: SchemaDocument;
  readonly budget: WorkBudget;
  readonly tracksAnnotations: boolean;
  private readonly caches: SchemaCaches;
  private readonly keys: KeyIndex;
  private readonly memo = new Map<object, Map<unknown, Outcome | typeof IN_PROGRESS>>();
  private nested = 0;

  /**
   * @param document - the schema, read
   * @param keys - the check's key index (and its budget)
   * @param caches - the schema's compiled patterns and `enum` lookups
   * @param tracksAnnotations - whether to keep evaluated properties and items
   */
  constructor(
    document: SchemaDocument,
    keys: KeyIndex,
    caches: SchemaCaches,
    tracksAnnotations: boolean,
  ) {
    this.document = document;
    this.keys = keys;
    this.budget = keys.budget;
    this.caches = caches;
    this.tracksAnnotations = tracksAnnotations;
  }

  evaluate(schema: unknown, base: string, instance: unknown, depth: number): Outcome {
    this.budget.spend(EVALUATION_STEPS);
    if (schema === true) return VALID;
    if (schema === false) return failure('No value is allowed here.');
    if (!isJsonObject(schema))
      return unknown('A part of the schema is neither an object nor a boolean.');
    if (++this.nested > MAX_NESTED_EVALUATIONS) throw new EvaluationTooDeep();
    try {
      return this.evaluateObject(schema, this.shapeOf(schema, base), instance, depth);
    } finally {
      this.nested -= 1;
    }
  }

  keysOf(object: JsonObject): readonly string[] {
    return this.keys.keysOf(object);
  }

  pattern(source: string): LinearPattern | string {
    let compiled = this.caches.patterns.get(source);
    if (compiled === undefined) {
      this.budget.spend(source.length);
      try {
        compiled = compilePattern(source);
        this.budget.spend(compiled.size);
      } catch (error) {
        if (!(error instanceof UnsupportedPattern)) throw error;
        compiled = error.message;
      }
      this.caches.patterns.set(source, compiled);
    }
    return compiled;
  }

  enumValues(values: unknown[]): EnumValues {
    let split = this.caches.enums.get(values);
    if (split === undefined) {
      this.budget.spend(values.length);
      const primitives = new Set<unknown>();
      const others: unknown[] = [];
      for (const value of values) {
        if (value !== null && typeof value === 'object') others.push(value);
        else primitives.add(value);
      }
      split = { primitives, others };
      this.caches.enums.set(values, split);
    }
    return split;
  }

  private shapeOf(schema: JsonObject, outerBase: string): SchemaShape {
    let shape = this.caches.shapes.get(schema);
    if (shape === undefined) {
      const has = (keyword: string) => Object.hasOwn(schema, keyword);
      const keywords = Object.keys(schema).length;
      this.budget.spend(keywords);
      shape = {
        base: this.document.baseOf(schema, outerBase),
        keywords,
        values: VALUE_KEYWORDS.some(has),
        arrays: ARRAY_KEYWORDS.some(has),
        objects: OBJECT_KEYWORDS.some(has),
        combinators: COMBINATOR_KEYWORDS.some(has),
      };
      this.caches.shapes.set(schema, shape);
    }
    return shape;
  }

  private evaluateObject(
    schema: JsonObject,
    shape: SchemaShape,
    instance: unknown,
    depth: number,
  ): Outcome {
    this.budget.spend(shape.keywords);
    if (shape.keywords === 0) return VALID;
    const base = shape.base;
    const builder = new OutcomeBuilder();
    const draft = this.document.draft;
    if (typeof schema.$ref === 'string' && Object.hasOwn(schema, '$ref')) {
      this.applyReference(schema.$ref, base, instance, depth, builder);
      // Before 2019-09, `$ref` stands alone: the keywords beside it are ignored.
      if (draft === '4' || draft === '6' || draft === '7') return builder.build();
    }
    if (Object.hasOwn(schema, '$dynamicRef') || Object.hasOwn(schema, '$recursiveRef')) {
      builder.unknown('A dynamic reference ($dynamicRef, $recursiveRef) cannot be checked.');
    }
    if (shape.values) checkValueKeywords(this, schema, instance, builder);
    if (Array.isArray(instance)) {
      if (shape.arrays) checkArrayKeywords(this, schema, base, instance, depth, builder);
    } else if (shape.objects && isJsonObject(instance)) {
      checkObjectKeywords(this, schema, base, instance, depth, builder);
    }
    if (shape.combinators) checkCombinators(this, schema, base, instance, depth, builder);
    if (this.tracksAnnotations) checkUnevaluated(this, schema, base, instance, depth, builder);
    return builder.build();
  }

  private applyReference(
    reference: string,
    base: string,
    instance: unknown,
    depth: number,
    builder: OutcomeBuilder,
  ): void {
    const target = this.document.resolve(reference, base);
    if (target === undefined) {
      builder.unknown(`The schema refers to ${previewJson(reference, 80)}, which is outside it.`);
      return;
    }
    const outcome = this.evaluateRemembered(target.schema, target.base, instance, depth);
    builder.add(outcome);
    builder.addAnnotations(outcome);
  }

  private evaluateRemembered(
    schema: unknown,
    base: string,
    instance: unknown,
    depth: number,
  ): Outcome {
    if (!isJsonObject(schema)) return this.evaluate(schema, base, instance, depth);
    let forSchema = this.memo.get(schema);
    if (forSchema === undefined) {
      forSchema = new Map();
      this.memo.set(schema, forSchema);
    }
    const known = forSchema.get(instance);
    if (known !== undefined) {
      return known === IN_PROGRESS
        ? unknown('The schema refers to itself without reading deeper into the arguments.')
        : known;
    }
    forSchema.set(instance, IN_PROGRESS);
    try {
      const outcome = this.evaluate(schema, base, instance, depth);
      forSchema.set(instance, outcome);
      return outcome;
    } catch (error) {
      forSchema.delete(instance);
      throw error;
    }
  }
}

function failure(message: string): Outcome {
  return { ...VALID, status: FAILS, errors: [{ path: null, message }] };
}

function unknown(message: string): Outcome {
  return { ...VALID, status: UNKNOWN, unknowns: [{ path: null, message }] };
}
