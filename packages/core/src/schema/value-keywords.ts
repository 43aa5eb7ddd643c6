import type { EvaluationContext } from './evaluation-context';
import {
  type JsonObject,
  jsonEqual,
  jsonType,
  previewJson,
  STRING_CHARS_PER_STEP,
} from './json-values';
import type { OutcomeBuilder } from './schema-outcome';
import { FORMAT_CHECKS } from './string-formats';

/**
 * The keywords that look at a value itself: `type`, `enum`, `const`, the number bounds and
 * `multipleOf`, and the string keywords (`minLength`/`maxLength` in code points, `pattern` with
 * the linear-time matcher, `format`). A keyword whose value is malformed is ignored, as a
 * validator ignores a keyword it does not know.
 */

/** Characters of a schema's value quoted in a message (a pattern, a `const`). */
const QUOTE_LENGTH = 60;
/** Characters of the allowed values listed when `enum` fails; the rest are counted. */
const ENUM_LIST_LENGTH = 160;

/** Applies the value keywords of `schema` to `instance`. */
export function checkValueKeywords(
  context: EvaluationContext,
  schema: JsonObject,
  instance: unknown,
  builder: OutcomeBuilder,
): void {
  if (Object.hasOwn(schema, 'type')) checkType(schema.type, instance, builder);
  if (Array.isArray(schema.enum) && Object.hasOwn(schema, 'enum')) {
    checkEnum(context, schema.enum, instance, builder);
  }
  if (Object.hasOwn(schema, 'const') && !jsonEqual(instance, schema.const, context)) {
    builder.fail(`The value must be ${previewJson(schema.const, QUOTE_LENGTH)}.`);
  }
  if (typeof instance === 'number') checkNumber(context, schema, instance, builder);
  else if (typeof instance === 'string') checkString(context, schema, instance, builder);
}

function checkType(type: unknown, instance: unknown, builder: OutcomeBuilder): void {
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonType(instance);
  const matches = types.some(
    (name) =>
      name === actual ||
      (name === 'integer' && Number.isInteger(instance)) ||
      (name === 'number' && actual === 'number'),
  );
  if (matches) return;
  const expected = types.filter((name) => typeof name === 'string').map((name) => article(name));
  if (expected.length === 0) return;
  builder.fail(`Expected ${expected.join(' or ')}, got ${article(actual)}.`);
}

function article(type: string): string {
  if (type === 'null') return 'null';
  const shown = type.length > QUOTE_LENGTH ? `${type.slice(0, QUOTE_LENGTH)}…` : type;
  return /^[aeiou]/.test(shown) ? `an ${shown}` : `a ${shown}`;
}

function checkEnum(
  context: EvaluationContext,
  values: unknown[],
  instance: unknown,
  builder: OutcomeBuilder,
): void {
  const { primitives, others } = context.enumValues(values);
  context.budget.spend(1);
  if (instance === null || typeof instance !== 'object') {
    if (primitives.has(instance)) return;
  } else if (others.some((value) => jsonEqual(instance, value, context))) return;
  let list = '';
  let shown = 0;
  for (const value of values) {
    const next = previewJson(value, QUOTE_LENGTH);
    if (list.length + next.length > ENUM_LIST_LENGTH) break;
    list += `${shown === 0 ? '' : ', '}${next}`;
    shown += 1;
  }
  const more = values.length - shown;
  builder.fail(`The value must be one of: ${list}${more > 0 ? ` (and ${more} more)` : ''}.`);
}

function checkNumber(
  context: EvaluationContext,
  schema: JsonObject,
  value: number,
  builder: OutcomeBuilder,
): void {
  const { maximum, minimum, exclusiveMaximum, exclusiveMinimum, multipleOf } = schema;
  if (typeof maximum === 'number') {
    // Draft 4: `exclusiveMaximum: true` makes `maximum` exclusive.
    if (exclusiveMaximum === true ? value >= maximum : value > maximum) {
      builder.fail(
        `${value} is more than ${exclusiveMaximum === true ? 'or equal to ' : ''}the maximum ${maximum}.`,
      );
    }
  }
  if (typeof minimum === 'number') {
    if (exclusiveMinimum === true ? value <= minimum : value < minimum) {
      builder.fail(
        `${value} is less than ${exclusiveMinimum === true ? 'or equal to ' : ''}the minimum ${minimum}.`,
      );
    }
  }
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) {
    builder.fail(`${value} must be less than ${exclusiveMaximum}.`);
  }
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) {
    builder.fail(`${value} must be more than ${exclusiveMinimum}.`);
  }
  if (typeof multipleOf === 'number' && multipleOf > 0) {
    context.budget.spend(1);
    if (!isMultipleOf(value, multipleOf))
      builder.fail(`${value} is not a multiple of ${multipleOf}.`);
  }
}

/**
 * Whether `value` is an integer multiple of `divisor`, exactly in decimal: `0.3` is a multiple of
 * `0.1`, though `0.3 / 0.1` is `2.9999999999999996` in binary floating point. Both numbers are
 * read as the decimal their shortest representation shows (integer digits and a power of ten).
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [valueDigits, valueExponent] = toDecimal(value);
  const [divisorDigits, divisorExponent] = toDecimal(divisor);
  const shift = valueExponent - divisorExponent;
  return shift >= 0
    ? (valueDigits * 10n ** BigInt(shift)) % divisorDigits === 0n
    : valueDigits % (divisorDigits * 10n ** BigInt(-shift)) === 0n;
}

/** A finite number as integer digits and a power of ten (`1.25e-7` → `[125n, -9]`). */
function toDecimal(value: number): [bigint, number] {
  const [coefficient = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const point = coefficient.indexOf('.');
  const fraction = point === -1 ? 0 : coefficient.length - point - 1;
  return [BigInt(coefficient.replace('.', '')), Number(exponent) - fraction];
}

function checkString(
  context: EvaluationContext,
  schema: JsonObject,
  value: string,
  builder: OutcomeBuilder,
): void {
  const { maxLength, minLength, pattern, format } = schema;
  // Code units bound code points from above, and twice the code points from below.
  const needsCount =
    (typeof maxLength === 'number' && value.length > maxLength) ||
    (typeof minLength === 'number' && value.length < 2 * minLength);
  const length = needsCount ? codePointLength(context, value) : value.length;
  if (typeof maxLength === 'number' && length > maxLength) {
    builder.fail(`The string is ${length} characters long, more than the maximum of ${maxLength}.`);
  }
  if (typeof minLength === 'number' && length < minLength) {
    builder.fail(
      `The string is ${length} characters long, fewer than the minimum of ${minLength}.`,
    );
  }
  if (typeof pattern === 'string' && Object.hasOwn(schema, 'pattern')) {
    const compiled = context.pattern(pattern);
    const quoted = previewJson(pattern, QUOTE_LENGTH);
    if (typeof compiled === 'string')
      builder.unknown(`The pattern ${quoted} cannot be checked: ${compiled}.`);
    else if (!compiled.test(value, context.budget)) {
      builder.fail(`The string does not match the pattern ${quoted}.`);
    }
  }
  if (typeof format === 'string' && Object.hasOwn(FORMAT_CHECKS, format)) {
    if (!FORMAT_CHECKS[format]!(value, context.budget)) {
      builder.fail(`The string is not a valid ${format}.`);
    }
  }
}

function codePointLength(context: EvaluationContext, value: string): number {
  context.budget.spend(value.length / STRING_CHARS_PER_STEP);
  let length = value.length;
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    // A lead surrogate followed by a trail one is one code point; a lone one counts alone.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        index += 1;
      }
    }
  }
  return length;
}
