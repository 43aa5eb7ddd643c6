import type { EvaluationContext } from './evaluation-context';
import { canonicalKey, hasKey, isJsonObject, type JsonObject } from './json-values';
import { FAILS, HOLDS, type Outcome, type OutcomeBuilder } from './schema-outcome';

/**
 * The keywords of arrays and objects: sizes, `uniqueItems` (one hash lookup per item),
 * `prefixItems`/`items`/`additionalItems`/`contains`, `required` and the dependencies,
 * `properties`/`patternProperties`/`additionalProperties`/`propertyNames`, and the two
 * `unevaluated*` keywords, which run last. Each child a keyword reaches is one evaluation.
 */

/** What a property that no schema allows is told, at the property (as the model has to look there). */
export const UNEXPECTED_PROPERTY = 'is not a parameter of this tool.';

const name = (key: string): string =>
  JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);

/** Applies the array keywords of `schema` to `items`. */
export function checkArrayKeywords(
  context: EvaluationContext,
  schema: JsonObject,
  base: string,
  items: unknown[],
  depth: number,
  builder: OutcomeBuilder,
): void {
  const { maxItems, minItems, prefixItems, items: itemSchema, additionalItems } = schema;
  const length = items.length;
  if (typeof maxItems === 'number' && length > maxItems) {
    builder.fail(`The array has ${length} items, more than the maximum of ${maxItems}.`);
  }
  if (typeof minItems === 'number' && length < minItems) {
    builder.fail(`The array has ${length} items, fewer than the minimum of ${minItems}.`);
  }
  if (schema.uniqueItems === true && length > 1) checkUnique(context, items, builder);
  const apply = (itemSchemaAt: unknown, index: number) => {
    const outcome = context.evaluate(itemSchemaAt, base, items[index], depth + 1);
    builder.add(outcome, String(index));
  };
  let index = 0;
  if (Array.isArray(prefixItems) && Object.hasOwn(schema, 'prefixItems')) {
    for (; index < Math.min(prefixItems.length, length); index++) apply(prefixItems[index], index);
  }
  if (Object.hasOwn(schema, 'items')) {
    if (Array.isArray(itemSchema)) {
      // The tuple form of drafts 4 to 2019-09, and `additionalItems` for the items after it.
      for (; index < Math.min(itemSchema.length, length); index++) apply(itemSchema[index], index);
    } else {
      for (; index < length; index++) apply(itemSchema, index);
    }
    if (Object.hasOwn(schema, 'additionalItems')) {
      for (; index < length; index++) apply(additionalItems, index);
    }
  }
  if (context.tracksAnnotations && index > builder.itemsPrefix) builder.itemsPrefix = index;
  if (Object.hasOwn(schema, 'contains'))
    checkContains(context, schema, base, items, depth, builder);
}

function checkUnique(context: EvaluationContext, items: unknown[], builder: OutcomeBuilder): void {
  const seen = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const key = canonicalKey(items[index], context);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      builder.fail(`Items ${earlier} and ${index} are equal; the items must be unique.`);
      return;
    }
    seen.set(key, index);
  }
}

function checkContains(
  context: EvaluationContext,
  schema: JsonObject,
  base: string,
  items: unknown[],
  depth: number,
  builder: OutcomeBuilder,
): void {
  const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
  const max =
    typeof schema.maxContains === 'number' ? schema.maxContains : Number.POSITIVE_INFINITY;
  let matched = 0;
  let unknown: Outcome | undefined;
  for (let index = 0; index < items.length; index++) {
    const outcome = context.evaluate(schema.contains, base, items[index], depth + 1);
    if (outcome.status === HOLDS) {
      matched += 1;
      if (context.tracksAnnotations) {
        builder.itemSet ??= new Set();
        builder.itemSet.add(index);
      }
    } else if (outcome.status !== FAILS) unknown ??= outcome;
  }
  if (matched >= min && matched <= max) return;
  if (unknown !== undefined && matched < min) {
    builder.add(unknown);
    return;
  }
  builder.fail(
    matched < min
      ? `The array must contain at least ${min} item${min === 1 ? '' : 's'} of the form "contains" describes; it has ${matched}.`
      : `The array may contain at most ${max} item${max === 1 ? '' : 's'} of the form "contains" describes; it has ${matched}.`,
  );
}

/** Applies the object keywords of `schema` to `object`, all but `unevaluatedProperties`. */
export function checkObjectKeywords(
  context: EvaluationContext,
  schema: JsonObject,
  base: string,
  object: JsonObject,
  depth: number,
  builder: OutcomeBuilder,
): void {
  const keys = context.keysOf(object);
  const { maxProperties, minProperties, required, properties, patternProperties } = schema;
  if (typeof maxProperties === 'number' && keys.length > maxProperties) {
    builder.fail(
      `The object has ${keys.length} properties, more than the maximum of ${maxProperties}.`,
    );
  }
  if (typeof minProperties === 'number' && keys.length < minProperties) {
    builder.fail(
      `The object has ${keys.length} properties, fewer than the minimum of ${minProperties}.`,
    );
  }
  if (Array.isArray(required) && Object.hasOwn(schema, 'required')) {
    context.budget.spend(required.length);
    for (const key of required) {
      if (typeof key === 'string' && !hasKey(object, key)) {
        builder.fail(`The required property ${name(key)} is missing.`);
      }
    }
  }
  checkDependencies(context, schema, base, object, depth, builder);
  const apply = (childSchema: unknown, key: string) => {
    if (context.tracksAnnotations) {
      builder.properties ??= new Set();
      builder.properties.add(key);
    }
    if (childSchema === false) {
      builder.fail(UNEXPECTED_PROPERTY, key);
      return;
    }
    builder.add(context.evaluate(childSchema, base, object[key], depth + 1), key);
  };
  const covered = new Set<string>();
  if (isJsonObject(properties) && Object.hasOwn(schema, 'properties')) {
    // Whichever side is smaller is walked: a wide schema or wide arguments cost their overlap.
    const names = Object.keys(properties);
    context.budget.spend(Math.min(names.length, keys.length));
    const inBoth =
      names.length < keys.length
        ? names.filter((key) => hasKey(object, key))
        : keys.filter((key) => Object.hasOwn(properties, key));
    for (const key of inBoth) {
      covered.add(key);
      apply(properties[key], key);
    }
  }
  // Keys whose match to a pattern is unknown: no later keyword may call them "additional".
  let undecided: Set<string> | undefined;
  if (isJsonObject(patternProperties) && Object.hasOwn(schema, 'patternProperties')) {
    for (const [source, childSchema] of Object.entries(patternProperties)) {
      const pattern = context.pattern(source);
      if (typeof pattern === 'string') {
        if (keys.length > 0) {
          builder.unknown(`The property pattern ${name(source)} cannot be checked: ${pattern}.`);
          undecided ??= new Set(keys);
        }
        continue;
      }
      for (const key of keys) {
        if (!pattern.test(key, context.budget)) continue;
        covered.add(key);
        apply(childSchema, key);
      }
    }
  }
  if (Object.hasOwn(schema, 'additionalProperties')) {
    for (const key of keys) {
      if (covered.has(key)) continue;
      if (undecided?.has(key)) continue;
      apply(schema.additionalProperties, key);
    }
  }
  if (Object.hasOwn(schema, 'propertyNames')) {
    for (const key of keys) {
      const outcome = context.evaluate(schema.propertyNames, base, key, depth + 1);
      if (outcome.status === FAILS) {
        const reason = outcome.errors[0]?.message ?? '';
        builder.fail(`This property name is not allowed. ${reason}`.trim(), key);
      } else builder.add(outcome, key);
    }
  }
}

function checkDependencies(
  context: EvaluationContext,
  schema: JsonObject,
  base: string,
  object: JsonObject,
  depth: number,
  builder: OutcomeBuilder,
): void {
  for (const keyword of ['dependentRequired', 'dependentSchemas', 'dependencies']) {
    const map = schema[keyword];
    if (!Object.hasOwn(schema, keyword) || !isJsonObject(map)) continue;
    for (const [key, dependency] of Object.entries(map)) {
      context.budget.spend(1);
      if (!hasKey(object, key)) continue;
      if (Array.isArray(dependency)) {
        if (keyword === 'dependentSchemas') continue;
        context.budget.spend(dependency.length);
        for (const other of dependency) {
          if (typeof other === 'string' && !hasKey(object, other)) {
            builder.fail(`The property ${name(other)} is required when ${name(key)} is present.`);
          }
        }
      } else if (keyword !== 'dependentRequired') {
        const outcome = context.evaluate(dependency, base, object, depth);
        builder.add(outcome);
        builder.addAnnotations(outcome);
      }
    }
  }
}

/** Applies `unevaluatedProperties`/`unevaluatedItems` once every other keyword has run. */
export function checkUnevaluated(
  context: EvaluationContext,
  schema: JsonObject,
  base: string,
  instance: unknown,
  depth: number,
  builder: OutcomeBuilder,
): void {
  if (Array.isArray(instance) && Object.hasOwn(schema, 'unevaluatedItems')) {
    for (let index = builder.itemsPrefix; index < instance.length; index++) {
      if (builder.itemSet?.has(index)) continue;
      const outcome = context.evaluate(schema.unevaluatedItems, base, instance[index], depth + 1);
      builder.add(outcome, String(index));
    }
    builder.itemsPrefix = Number.POSITIVE_INFINITY;
  } else if (isJsonObject(instance) && Object.hasOwn(schema, 'unevaluatedProperties')) {
    const evaluated = builder.properties;
    const keys = context.keysOf(instance);
    for (const key of keys) {
      if (evaluated?.has(key)) continue;
      if (schema.unevaluatedProperties === false) builder.fail(UNEXPECTED_PROPERTY, key);
      else {
        const outcome = context.evaluate(
          schema.unevaluatedProperties,
          base,
          instance[key],
          depth + 1,
        );
        builder.add(outcome, key);
      }
    }
    builder.properties = new Set(keys);
  }
}
