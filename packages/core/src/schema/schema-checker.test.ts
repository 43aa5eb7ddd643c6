import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { SchemaChecker } from './schema-checker';
import { isMultipleOf } from './value-keywords';

const check = (schema: unknown, value: unknown) => new SchemaChecker(schema).check(value);

describe('SchemaChecker', () => {
  it('names the path and what was expected for each problem', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
      },
      required: ['city'],
      additionalProperties: false,
    };
    const result = check(schema, { days: 0, tags: ['ok', 'too long'], extra: 1 });
    expect(result).toMatchObject({ kind: 'invalid', reason: 'mismatch' });
    if (result.kind !== 'invalid') return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: '', message: 'The required property "city" is missing.' },
        { path: '/days', message: '0 is less than the minimum 1.' },
        { path: '/tags/1', message: expect.stringContaining('more than the maximum of 3') },
        { path: '/extra', message: 'is not a parameter of this tool.' },
      ]),
    );
  });

  it('counts string lengths in code points', () => {
    expect(check({ maxLength: 2 }, '😀😀').kind).toBe('valid');
    expect(check({ minLength: 3 }, '😀😀').kind).toBe('invalid');
    // A lone surrogate counts as one.
    expect(check({ maxLength: 1 }, '\uD800').kind).toBe('valid');
  });

  it('checks multipleOf in decimal, not binary floating point', () => {
    expect(isMultipleOf(0.3, 0.1)).toBe(true);
    expect(isMultipleOf(1e-7, 1e-8)).toBe(true);
    expect(isMultipleOf(0.35, 0.1)).toBe(false);
    expect(isMultipleOf(10, 2.5)).toBe(true);
    expect(isMultipleOf(1e308, 3)).toBe(false);
  });

  it('reads draft 4 bounds and the $ref of drafts before 2019-09 alone', () => {
    const draft4 = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      maximum: 5,
      exclusiveMaximum: true,
    };
    expect(check(draft4, 5).kind).toBe('invalid');
    expect(check(draft4, 4.9).kind).toBe('valid');
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { n: { type: 'number' } },
      properties: { a: { $ref: '#/definitions/n', minimum: 10 } },
    };
    expect(check(draft7, { a: 1 }).kind).toBe('valid');
    const { $schema: _, ...as2020 } = draft7;
    expect(check(as2020, { a: 1 }).kind).toBe('invalid');
  });

  it('resolves $id, $anchor and pointers inside the document', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      $defs: {
        id: { $id: 'ids.json', type: 'integer', $defs: { positive: { minimum: 1 } } },
        name: { $anchor: 'name', type: 'string' },
      },
      properties: {
        a: { $ref: 'ids.json' },
        b: { $ref: 'ids.json#/$defs/positive' },
        c: { $ref: '#name' },
        d: { $ref: 'https://example.com/root.json#/$defs/name' },
        'e/f': { $ref: '#/properties/a' },
      },
    };
    expect(check(schema, { a: 1, b: 2, c: 'x', d: 'y', 'e/f': 3 }).kind).toBe('valid');
    for (const bad of [{ a: 'x' }, { b: 0 }, { c: 1 }, { d: 2 }, { 'e/f': 'z' }]) {
      expect(check(schema, bad).kind, JSON.stringify(bad)).toBe('invalid');
    }
  });

  it('leaves only the part it cannot check unchecked, and says which', () => {
    const schema = {
      properties: {
        remote: { $ref: 'https://example.com/other.json' },
        count: { type: 'integer' },
      },
    };
    expect(check(schema, { remote: 1, count: 'x' }).kind).toBe('invalid');
    const result = check(schema, { remote: 1, count: 2 });
    expect(result).toMatchObject({
      kind: 'unchecked',
      parts: [
        { path: '/remote', message: expect.stringContaining('https://example.com/other.json') },
      ],
    });
    // An argument the schema part does not reach leaves nothing unchecked.
    expect(check(schema, { count: 2 }).kind).toBe('valid');
  });

  it('keeps an unknown part unknown through not, anyOf and oneOf', () => {
    const lookahead = { type: 'string', pattern: '^(?=.*\\d)' };
    expect(check({ not: lookahead }, 'a1').kind).toBe('unchecked');
    expect(check({ anyOf: [lookahead, { type: 'string' }] }, 'a').kind).toBe('valid');
    expect(check({ anyOf: [lookahead, { type: 'number' }] }, 'a').kind).toBe('unchecked');
    expect(check({ anyOf: [lookahead, { type: 'number' }] }, true).kind).toBe('invalid');
    expect(check({ oneOf: [{ type: 'string' }, { type: 'string' }, lookahead] }, 'a').kind).toBe(
      'invalid',
    );
  });

  it('does not call a key "additional" when a pattern it may match cannot be checked', () => {
    const schema = {
      patternProperties: { '^(?!x)': { type: 'string' } },
      additionalProperties: false,
    };
    expect(check(schema, { a: 'x' }).kind).toBe('unchecked');
    expect(check(schema, {}).kind).toBe('valid');
  });

  it('tracks evaluated properties and items for the unevaluated keywords', () => {
    const schema = {
      allOf: [{ properties: { a: true } }],
      anyOf: [{ properties: { b: { type: 'string' } }, required: ['b'] }, { required: ['c'] }],
      unevaluatedProperties: false,
    };
    expect(check(schema, { a: 1, b: 'x' }).kind).toBe('valid');
    expect(check(schema, { a: 1, c: 1 }).kind).toBe('invalid');
    const items = {
      prefixItems: [{ type: 'integer' }],
      contains: { type: 'string' },
      unevaluatedItems: false,
    };
    expect(check(items, [1, 'a', 'b']).kind).toBe('valid');
    expect(check(items, [1, 'a', 2]).kind).toBe('invalid');
  });

  it('treats keys holding undefined as absent, and refuses values JSON cannot hold', () => {
    const schema = {
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(check(schema, { a: 'x', b: undefined }).kind).toBe('valid');
    expect(check(schema, { a: undefined }).kind).toBe('invalid');
    for (const value of [{ a: Number.NaN }, { a: () => 1 }, { a: 1n }, { a: [undefined] }]) {
      expect(check({}, value)).toMatchObject({ kind: 'invalid', reason: 'not-json' });
    }
  });

  it('looks properties up as own keys only', () => {
    const schema = {
      properties: { constructor: { type: 'string' }, __proto__: { type: 'string' } },
    };
    expect(check(JSON.parse(JSON.stringify(schema)), JSON.parse('{"__proto__": 1}')).kind).toBe(
      'valid',
    );
    expect(
      check(
        JSON.parse('{"properties": {"__proto__": {"type": "string"}}}'),
        JSON.parse('{"__proto__": 1}'),
      ).kind,
    ).toBe('invalid');
    expect(check({ required: ['toString'] }, {}).kind).toBe('invalid');
    expect(check({ format: 'constructor' }, 'x').kind).toBe('valid');
  });

  it('refuses a reference cycle that reads no deeper as unchecked, not by recursing forever', () => {
    expect(check({ $ref: '#' }, 1).kind).toBe('unchecked');
  });
});

describe('string formats', () => {
  /** Strings on which the formats agree with @cfworker/json-schema, valid and not. */
  const SAMPLES: Record<string, string[]> = {
    date: ['2024-02-29', '2023-02-29', '2024-04-31', '2024-1-01', '20240101', '2024-12-31'],
    time: ['12:00:00Z', '23:59:60Z', '12:59:60Z', '12:00:00.123+01:00', '24:00:00Z', '12:00:00'],
    'date-time': [
      '2024-01-01T10:00:00Z',
      '2024-01-01t10:00:00z',
      '2024-01-01T25:00:00Z',
      '2024-01-01',
    ],
    duration: ['P1D', 'PT1H', 'P1Y2M3DT4H5M6S', 'P2W', 'P', 'PT', 'P1DT', 'P1W2D'],
    uuid: [
      '123e4567-e89b-12d3-a456-426614174000',
      '123e4567e89b12d3a456426614174000',
      'g23e4567-e89b-12d3-a456-426614174000',
    ],
    ipv4: ['192.168.0.1', '256.0.0.1', '1.2.3', '1.2.3.4.5', '0.0.0.0'],
    ipv6: [
      '::1',
      '2001:db8::8a2e:370:7334',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '::ffff:192.0.2.1',
      '1::2::3',
      'g::1',
    ],
    hostname: ['example.com', 'a-b.c', '-a.com', 'a_b.com', `${'a'.repeat(64)}.com`],
    email: [
      'ada@example.com',
      'a.b+c@d.e',
      '.a@b.c',
      'a..b@c.d',
      'a@b',
      '"quoted"@example.com',
      'no-at-sign',
    ],
    uri: [
      'https://example.com/a?b#c',
      'urn:isbn:123',
      'mailto:a@b.c',
      '//no-scheme',
      'a b:c',
      'http://[::1]:80/',
      'http://[::1/',
    ],
    'uri-reference': ['../a', '#frag', 'https://x.y', 'a b', '%zz'],
    'uri-template': ['http://example.com/{id}', '{+path}/x', '{unclosed', 'a{b,c*}'],
    'json-pointer': ['', '/a', '/a~1b', '/a~2', 'a'],
    'relative-json-pointer': ['0', '1/a', '2#', '-1', '01'],
    regex: ['^a+$', '(', '[a-z]'],
  };

  it('agree with @cfworker/json-schema on ordinary strings', () => {
    for (const [format, samples] of Object.entries(SAMPLES)) {
      const reference = new Validator({ type: 'string', format }, '2020-12');
      const checker = new SchemaChecker({ type: 'string', format });
      for (const sample of samples) {
        expect({ format, sample, valid: checker.check(sample).kind === 'valid' }).toEqual({
          format,
          sample,
          valid: reference.validate(sample).valid,
        });
      }
    }
  });

  it('leave formats without a linear check, and unknown ones, as annotations', () => {
    for (const format of ['idn-email', 'idn-hostname', 'iri', 'phone-number']) {
      expect(check({ format }, 'anything at all').kind).toBe('valid');
    }
  });
});

describe('SchemaChecker on a schema that contains itself', () => {
  it('reads it once and checks values as deep as they go', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    schema.properties = { child: schema, count: { type: 'integer' } };
    const checker = new SchemaChecker(schema);
    expect(checker.check({ child: { child: { count: 1 } } }).kind).toBe('valid');
    expect(checker.check({ child: { child: { count: 'x' } } })).toMatchObject({
      kind: 'invalid',
      problems: [{ path: '/child/child/count' }],
    });
  });
});
