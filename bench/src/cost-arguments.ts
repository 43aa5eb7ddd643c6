/**
 * Arguments a scripted model calls a catalog tool with: the smallest instance its input schema
 * accepts that the script can build (required properties only, the first enum value, the minimum
 * of a range, a value of the declared format), checked against the schema with
 * `@cfworker/json-schema`, the validator LangChain uses for JSON-schema tools.
 */
import { Validator } from '@cfworker/json-schema';

/** Deeper than any schema of the data sets; stops a schema that refers to itself. */
const MAX_DEPTH = 12;

/** Values for the string formats the data sets use. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: '2025-06-15',
  'date-time': '2025-06-15T09:30:00Z',
  time: '09:30:00',
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  ipv4: '192.0.2.1',
  hostname: 'example.com',
};

type Schema = { readonly [key: string]: unknown };

/**
 * Arguments for a tool whose input schema is `schema`, or `undefined` when what the script builds
 * does not validate (a `pattern` it cannot satisfy, say).
 */
export function exampleArguments(schema: unknown): Record<string, unknown> | undefined {
  const value = exampleValue(isSchema(schema) ? schema : { type: 'object' }, 0);
  const args = isPlainObject(value) ? value : {};
  const target = isSchema(schema) ? schema : { type: 'object' };
  try {
    return new Validator(target as never, '2020-12', false).validate(args).valid ? args : undefined;
  } catch {
    return undefined;
  }
}

function exampleValue(schema: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && isSchema(options[0])) return exampleValue(options[0], depth + 1);
  }
  switch (typeOf(schema)) {
    case 'object':
      return exampleObject(schema, depth);
    case 'array': {
      const items = isSchema(schema.items) ? schema.items : {};
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 1);
      return Array.from({ length: count }, () => exampleValue(items, depth + 1));
    }
    case 'integer':
      return Math.ceil(exampleNumber(schema));
    case 'number':
      return exampleNumber(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return exampleString(schema);
  }
}

function exampleObject(schema: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, unknown> = {};
  for (const name of required) {
    if (typeof name !== 'string') continue;
    const property = properties[name];
    out[name] = exampleValue(isSchema(property) ? property : {}, depth + 1);
  }
  return out;
}

function exampleNumber(schema: Schema): number {
  if (typeof schema.minimum === 'number') return schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number') return Math.min(1, schema.maximum);
  return 1;
}

function exampleString(schema: Schema): string {
  const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (format !== undefined) return format;
  const minimum = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maximum =
    typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const text = 'example'.padEnd(minimum, 'x');
  return text.slice(0, Math.max(minimum, Math.min(text.length, maximum)));
}

function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type)
    ? schema.type.find((candidate) => candidate !== 'null')
    : schema.type;
  if (typeof type === 'string') return type;
  return isSchema(schema.properties) ? 'object' : undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isSchema(value);
}
