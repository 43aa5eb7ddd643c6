/**
 * Tool input schemas and arguments that make a JSON Schema check costly (issue 32): backtracking
 * patterns and formats, quadratic `uniqueItems`, huge `enum` lists, combinators over recursive
 * references, and arguments as deep or as wide as a request body allows. Each case says what a
 * bounded check must answer: `refused` (the call never runs), `unchecked` (it runs, and
 * `onError` says which part was not checked), or `valid`.
 */

/** One hostile form: a tool's input schema, the arguments, and the answer a bounded check gives. */
export interface HostileArgumentCase {
  name: string;
  schema: Record<string, unknown>;
  args: Record<string, unknown>;
  expected: 'refused' | 'unchecked' | 'valid';
  /** For `refused`: a word of the first problem's message or path. */
  mentions?: string;
}

const objectWith = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

function nestedObjects(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = { child: value };
  return value;
}

/** A definition that doubles at each level (`allOf` of the next one twice): 2^levels when unfolded. */
function doublingDefinitions(levels: number): Record<string, unknown> {
  const definitions: Record<string, unknown> = { [`d${levels}`]: { type: 'string', minLength: 1 } };
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/$defs/d${level + 1}` };
    definitions[`d${level}`] = { allOf: [next, { ...next, description: 'again' }] };
  }
  return definitions;
}

/** The hostile cases, built fresh (several are large). */
export function hostileArgumentCases(): HostileArgumentCase[] {
  const backtracking = `${'a'.repeat(27)}!`;
  const enumValues = Array.from({ length: 5_000 }, (_, index) => `value-${index}-of-a-long-list`);
  const distinct = Array.from({ length: 40_000 }, (_, index) => `item-${index}`);
  const wide: Record<string, number> = {};
  for (let index = 0; index < 200_000; index++) wide[`k${index}`] = index;
  return [
    {
      name: 'a backtracking pattern, ^(a+)+$',
      schema: objectWith({ q: { type: 'string', pattern: '^(a+)+$' } }),
      args: { q: backtracking },
      expected: 'refused',
      mentions: 'pattern',
    },
    {
      name: 'a backtracking pattern on a 1 MB string',
      schema: objectWith({ q: { type: 'string', pattern: '^(a+)+$' } }),
      args: { q: `${'a'.repeat(2 ** 20)}!` },
      expected: 'refused',
    },
    {
      name: 'a backtracking patternProperties key, extra keys refused',
      schema: {
        type: 'object',
        patternProperties: { '^(a+)+$': { type: 'string' } },
        additionalProperties: false,
      },
      args: { [backtracking]: 'x' },
      expected: 'refused',
      mentions: 'not a parameter',
    },
    {
      name: 'format "uri", a hostile 28-character string',
      schema: objectWith({ u: { type: 'string', format: 'uri' } }),
      args: { u: `a:${'%AA'.repeat(8)}\u0000!` },
      expected: 'refused',
      mentions: 'uri',
    },
    {
      name: 'format "url", a hostile string',
      schema: objectWith({ u: { type: 'string', format: 'url' } }),
      args: { u: `http://${'a-'.repeat(5_000)} ` },
      expected: 'refused',
      mentions: 'url',
    },
    {
      name: 'uniqueItems over 40,000 distinct items',
      schema: objectWith({ xs: { type: 'array', uniqueItems: true } }),
      args: { xs: distinct },
      expected: 'valid',
    },
    {
      name: 'uniqueItems, 40,000 items and one repeated',
      schema: objectWith({ xs: { type: 'array', uniqueItems: true } }),
      args: { xs: [...distinct, 'item-7'] },
      expected: 'refused',
      mentions: 'unique',
    },
    {
      name: 'a 5,000-value enum and 10 bad items',
      schema: objectWith({ xs: { type: 'array', items: { enum: enumValues } } }),
      args: { xs: Array.from({ length: 10 }, (_, index) => `bad-${index}`) },
      expected: 'refused',
      mentions: 'one of',
    },
    {
      name: 'oneOf of two recursive references, arrays nested 40 deep',
      schema: {
        $defs: {
          node: {
            oneOf: [
              { type: 'array', items: { $ref: '#/$defs/node' } },
              { type: 'array', items: { $ref: '#/$defs/node' }, maxItems: 5 },
            ],
          },
        },
        ...objectWith({ tree: { $ref: '#/$defs/node' } }),
      },
      args: { tree: nestedArrays(40) },
      expected: 'refused',
      mentions: 'oneOf',
    },
    {
      name: 'anyOf of two recursive references, objects nested 60 deep, failing at the bottom',
      schema: {
        $defs: {
          node: {
            anyOf: [
              {
                type: 'object',
                properties: { child: { $ref: '#/$defs/node' } },
                required: ['child'],
              },
              { type: 'object', properties: { child: { $ref: '#/$defs/node' } }, minProperties: 1 },
            ],
          },
        },
        ...objectWith({ tree: { $ref: '#/$defs/node' } }),
      },
      args: { tree: nestedObjects(60, 'leaf') },
      expected: 'refused',
    },
    {
      name: 'a definition that doubles 40 times (allOf of a $ref, twice)',
      schema: { $defs: doublingDefinitions(40), ...objectWith({ s: { $ref: '#/$defs/d0' } }) },
      args: { s: '' },
      expected: 'refused',
      mentions: 'fewer than the minimum',
    },
    {
      name: 'arguments nested 10,000 levels deep',
      schema: {
        $defs: {
          node: { type: ['object', 'string'], additionalProperties: { $ref: '#/$defs/node' } },
        },
        ...objectWith({ tree: { $ref: '#/$defs/node' } }),
      },
      args: { tree: nestedObjects(10_000, 'leaf') },
      expected: 'refused',
      mentions: 'nested too deeply',
    },
    {
      name: '200,000 properties, each checked by additionalProperties',
      schema: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
      args: wide,
      expected: 'refused',
      mentions: 'too large or too complex',
    },
    {
      name: 'a 1 MB property name that is not a parameter',
      schema: objectWith({ city: { type: 'string' } }, { additionalProperties: false }),
      args: { ['n'.repeat(2 ** 20)]: 1 },
      expected: 'refused',
      mentions: 'not a parameter',
    },
    {
      name: 'a pattern with a lookahead (unchecked alone), a bad second property',
      schema: objectWith({
        password: { type: 'string', pattern: '^(?=.*\\d).{8,}$' },
        count: { type: 'integer' },
      }),
      args: { password: 'hunter22', count: 'many' },
      expected: 'refused',
      mentions: 'integer',
    },
    {
      name: 'a pattern with a lookahead, the rest valid',
      schema: objectWith({
        password: { type: 'string', pattern: '^(?=.*\\d).{8,}$' },
        count: { type: 'integer' },
      }),
      args: { password: 'hunter22', count: 2 },
      expected: 'unchecked',
    },
    {
      name: 'a remote $ref in one property, a bad second property',
      schema: objectWith({
        a: { $ref: 'https://example.com/schema.json' },
        b: { type: 'integer' },
      }),
      args: { a: 1, b: 'x' },
      expected: 'refused',
      mentions: 'integer',
    },
    {
      name: 'a pattern that compiles to a million instructions',
      schema: objectWith({ q: { type: 'string', pattern: '^(?:(?:a{1000}){1000})$' } }),
      args: { q: 'aaaa' },
      expected: 'unchecked',
    },
    {
      name: 'a reference cycle that reads no deeper',
      schema: {
        $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } },
        ...objectWith({ x: { $ref: '#/$defs/a' } }),
      },
      args: { x: 1 },
      expected: 'unchecked',
    },
    {
      name: '2,000 object enum values against 1,000 object items',
      schema: objectWith({
        xs: {
          type: 'array',
          items: {
            enum: Array.from({ length: 2_000 }, (_, index) => ({ id: index, tags: ['a', 'b'] })),
          },
        },
      }),
      args: { xs: Array.from({ length: 1_000 }, (_, index) => ({ id: -index, tags: ['a', 'b'] })) },
      expected: 'refused',
    },
    {
      name: '500 property patterns over 20,000 keys',
      schema: {
        type: 'object',
        patternProperties: Object.fromEntries(
          Array.from({ length: 500 }, (_, index) => [
            `^p${index}_[a-z]+\\d*$`,
            { type: 'integer' },
          ]),
        ),
      },
      args: Object.fromEntries(
        Array.from({ length: 20_000 }, (_, index) => [`key_${index}_${'x'.repeat(20)}`, index]),
      ),
      expected: 'refused',
      mentions: 'too large or too complex',
    },
  ];
}
