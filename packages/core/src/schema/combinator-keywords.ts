import type { EvaluationContext } from './evaluation-context';
import type { JsonObject } from './json-values';
import { HOLDS, type Outcome, type OutcomeBuilder, UNKNOWN } from './schema-outcome';

/**
 * The in-place applicators that combine subschemas on the same value, over three-valued
 * outcomes: `allOf` holds if every branch does; `anyOf` if one does (unknown if none fails
 * outright and one is unknown); `oneOf` if exactly one does; `not` flips holds and fails and keeps
 * unknown; `if` picks `then` or `else`, and an unknown condition leaves the whole unknown.
 * Annotations (evaluated properties and items) come from the branches that hold.
 */

/** Applies the in-place combinators of `schema` (`allOf`, `anyOf`, `oneOf`, `not`, `if`) to `instance`. */
export function checkCombinators(
  context: EvaluationContext,
  schema: JsonObject,
  base: string,
  instance: unknown,
  depth: number,
  builder: OutcomeBuilder,
): void {
  const subschemas = (keyword: string): unknown[] | undefined => {
    const value = schema[keyword];
    return Object.hasOwn(schema, keyword) && Array.isArray(value) ? value : undefined;
  };
  const run = (subschema: unknown) => context.evaluate(subschema, base, instance, depth);
  const allOf = subschemas('allOf');
  if (allOf) {
    for (const subschema of allOf) {
      const outcome = run(subschema);
      builder.add(outcome);
      builder.addAnnotations(outcome);
    }
  }
  const anyOf = subschemas('anyOf');
  if (anyOf) applyAnyOf(context, anyOf, run, builder);
  const oneOf = subschemas('oneOf');
  if (oneOf) applyOneOf(oneOf, run, builder);
  if (Object.hasOwn(schema, 'not')) {
    const outcome = run(schema.not);
    if (outcome.status === HOLDS) builder.fail('The value has a form it must not have ("not").');
    else if (outcome.status === UNKNOWN) builder.add(outcome);
  }
  if (Object.hasOwn(schema, 'if')) applyCondition(schema, run, builder);
}

function applyAnyOf(
  context: EvaluationContext,
  branches: unknown[],
  run: (schema: unknown) => Outcome,
  builder: OutcomeBuilder,
): void {
  const outcomes: Outcome[] = [];
  let holds = false;
  for (const branch of branches) {
    const outcome = run(branch);
    outcomes.push(outcome);
    if (outcome.status === HOLDS) {
      holds = true;
      builder.addAnnotations(outcome);
      // Every branch's annotations count, so without them the first that holds is enough.
      if (!context.tracksAnnotations) break;
    }
  }
  if (holds) return;
  const unknownBranch = outcomes.find((outcome) => outcome.status === UNKNOWN);
  if (unknownBranch) {
    builder.add(unknownBranch);
    return;
  }
  builder.fail('The value matches none of the forms allowed here ("anyOf").');
  for (const outcome of outcomes) builder.add(outcome);
}

function applyOneOf(
  branches: unknown[],
  run: (schema: unknown) => Outcome,
  builder: OutcomeBuilder,
): void {
  const outcomes = branches.map(run);
  const holding = outcomes.filter((outcome) => outcome.status === HOLDS);
  const unknownBranch = outcomes.find((outcome) => outcome.status === UNKNOWN);
  if (holding.length > 1) {
    builder.fail(
      `The value matches ${holding.length} of the forms allowed here, and may match only one ("oneOf").`,
    );
  } else if (unknownBranch) builder.add(unknownBranch);
  else if (holding.length === 1) builder.addAnnotations(holding[0]!);
  else {
    builder.fail('The value matches none of the forms allowed here ("oneOf").');
    for (const outcome of outcomes) builder.add(outcome);
  }
}

function applyCondition(
  schema: JsonObject,
  run: (schema: unknown) => Outcome,
  builder: OutcomeBuilder,
): void {
  const condition = run(schema.if);
  if (condition.status === UNKNOWN) {
    builder.add(condition);
    return;
  }
  builder.addAnnotations(condition);
  const branch = condition.status === HOLDS ? 'then' : 'else';
  if (!Object.hasOwn(schema, branch)) return;
  const outcome = run(schema[branch]);
  builder.add(outcome);
  builder.addAnnotations(outcome);
}
