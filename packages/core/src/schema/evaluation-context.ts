import type { ValueWalk } from './json-values';
import type { LinearPattern } from './pattern/linear-pattern';
import type { SchemaDocument } from './schema-document';
import type { Outcome } from './schema-outcome';
import type { WorkBudget } from './work-budget';

/** The values of an `enum`, split for lookup: primitives in a set, objects and arrays to compare. */
export interface EnumValues {
  primitives: ReadonlySet<unknown>;
  others: readonly unknown[];
}

/** What the keyword checks are given: the document, the budget, the caches, and a way to recurse. */
export interface EvaluationContext extends ValueWalk {
  readonly document: SchemaDocument;
  readonly budget: WorkBudget;
  /** Whether evaluated properties and items are tracked (only when `unevaluated*` is used). */
  readonly tracksAnnotations: boolean;
  /**
   * Applies a subschema to a value.
   * @param schema - the subschema
   * @param base - the base URI of the schema around it
   * @param instance - the value
   * @param depth - how deep the value is in the arguments
   */
  evaluate(schema: unknown, base: string, instance: unknown, depth: number): Outcome;
  /** A pattern compiled for the linear-time matcher, or why it cannot be (cached per document). */
  pattern(source: string): LinearPattern | string;
  /** An `enum`'s values, ready for lookup (cached per document). */
  enumValues(values: unknown[]): EnumValues;
}
