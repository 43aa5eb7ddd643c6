import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { propertyRuns } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { SchemaChecker } from './schema-checker';

/**
 * The bounded checker agrees with `@cfworker/json-schema` (what the core used before) on
 * ordinary schemas: random schemas over the keywords tool schemas use, and random values near
 * what they accept, must get the same valid/invalid answer from both.
 */

const KEYS = ['a', 'b', 'x1', 'x2', 'c'];
const PATTERNS = [
  '^a',
  'b$',
  '^[a-c]+$',
  '\\d',
  '^x?y*$',
  '(ab|ba)',
  '^.{2}$',
  '\\bA',
  '[^a]',
  '^(a+)+$',
  '^\\w+@\\w+\\.\\w{2,}$',
];
const FORMATS = ['date', 'date-time', 'time', 'uuid', 'ipv4', 'json-pointer', 'duration'];
const STRINGS = [
  '',
  'a',
  'ab',
  'ba',
  'abc',
  'xyy',
  'A b',
  'é😀',
  'ada@example.com',
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '12:00:00Z',
  '23:59:60Z',
  '12:00:00+01:00',
  '1999-12-31T23:59:60Z',
  '2024-01-01T10:00:00.5Z',
  '2024-01-01 10:00:00Z',
  'P1D',
  'PT',
  'P1Y2M3DT4H5M6S',
  'P2W',
  '/a~1b',
  'a~',
  '/~2',
  '192.168.0.1',
  '256.1.1.1',
  '1.2.3',
  '123e4567-e89b-12d3-a456-426614174000',
  '123e4567-e89b-12d3-a456-42661417400',
];

const stringValue = fc.oneof(fc.constantFrom(...STRINGS), fc.string({ maxLength: 6 }));
const numberValue = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.constantFrom(0.5, 1.5, 0.3, 2.5, -0.1, 1e21, 3.0000000000000004),
);
const primitive = fc.oneof(stringValue, numberValue, fc.boolean(), fc.constant(null));

const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    primitive,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const smallNumber = fc.integer({ min: -3, max: 6 });
const typeName = fc.constantFrom(
  'string',
  'number',
  'integer',
  'boolean',
  'null',
  'array',
  'object',
);

const schema: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown }>((tie) => {
  const sub = tie('schema');
  const some = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.array(arbitrary, { minLength: 1, maxLength: 3 });
  const properties = fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 3 });
  return {
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(true, false, {}),
      fc.record({
        type: fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 })),
      }),
      fc.record({ enum: fc.array(primitive, { minLength: 1, maxLength: 4 }) }),
      fc.record({ const: value }),
      fc.record(
        {
          minimum: smallNumber,
          maximum: smallNumber,
          exclusiveMinimum: smallNumber,
          exclusiveMaximum: smallNumber,
          multipleOf: fc.constantFrom(1, 2, 0.5, 0.1, 3),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          minLength: fc.nat(4),
          maxLength: fc.nat(4),
          pattern: fc.constantFrom(...PATTERNS),
          format: fc.constantFrom(...FORMATS),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          type: fc.constant('array'),
          items: sub,
          prefixItems: some(sub),
          minItems: fc.nat(3),
          maxItems: fc.nat(3),
          uniqueItems: fc.boolean(),
          contains: sub,
          minContains: fc.nat(2),
          maxContains: fc.nat(2),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          type: fc.constant('object'),
          properties,
          required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
          additionalProperties: sub,
          patternProperties: fc.dictionary(fc.constantFrom('^x', 'c$', '^[ab]$'), sub, {
            maxKeys: 2,
          }),
          propertyNames: fc.constantFrom(
            { maxLength: 1 },
            { pattern: '^[a-c]' },
            { enum: ['a', 'b'] },
          ),
          minProperties: fc.nat(3),
          maxProperties: fc.nat(3),
          dependentRequired: fc.dictionary(
            fc.constantFrom(...KEYS),
            fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
            {
              maxKeys: 2,
            },
          ),
          dependentSchemas: fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 1 }),
        },
        { requiredKeys: [] },
      ),
      fc.record({ allOf: some(sub) }),
      fc.record({ anyOf: some(sub) }),
      fc.record({ oneOf: some(sub) }),
      fc.record({ not: sub }),
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here.
      fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ['if'] }),
      fc.record({ allOf: some(fc.record({ properties })), unevaluatedProperties: sub }),
      fc.record({ prefixItems: some(sub), unevaluatedItems: sub }),
      fc.constant({ $ref: '#/$defs/shared' }),
    ),
  };
}).schema;

/** A schema with a definition for `$ref`s to reach, and values to try on it. */
const schemaAndValues = fc.record({
  body: schema,
  shared: schema,
  values: fc.array(value, { minLength: 1, maxLength: 8 }),
});

function withDefinitions(body: unknown, shared: unknown): unknown {
  // `$defs.shared` must not refer to itself alone, or the schema has no meaning.
  const definition = JSON.stringify(shared).includes('#/$defs/shared') ? {} : shared;
  if (typeof body === 'boolean') return { allOf: [body], $defs: { shared: definition } };
  return { ...(body as object), $defs: { shared: definition } };
}

describe('SchemaChecker', () => {
  it('agrees with @cfworker/json-schema on ordinary schemas and values', () => {
    fc.assert(
      fc.property(schemaAndValues, ({ body, shared, values }) => {
        const full = withDefinitions(body, shared);
        const reference = new Validator(full as never, '2020-12', false);
        const checker = new SchemaChecker(full);
        for (const candidate of values) {
          const expected = reference.validate(candidate).valid;
          const result = checker.check(candidate);
          expect({ schema: full, value: candidate, kind: result.kind }).toEqual({
            schema: full,
            value: candidate,
            kind: expected ? 'valid' : 'invalid',
          });
        }
      }),
      propertyRuns('schema checker against @cfworker/json-schema', 400),
    );
  }, 120_000);
});
