/**
 * Hostile input for `ToolIndex`: what a catalog or a query holds (huge or odd text, prototype
 * names, bad ids, cyclic or deep schemas, odd options, a filter that throws). Every case must
 * finish within its stated time (the test's timeout: a hang guard, never a speed gate).
 */
import {
  cyclicSchema,
  deepSchema,
  LONE_SURROGATES,
  ONE_MB,
  ONLY_EMOJI,
  ONLY_PUNCTUATION,
  PROTOTYPE_NAMES,
  REGEX_FRAGMENT,
  SQL_FRAGMENT,
  TEN_MB,
} from 'tool-search-testing/hostile-inputs';
import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index';

/** Generous: a hang guard on a shared 2-core machine, never a speed gate. */
const SLOW = 60_000;

const STRINGS: [label: string, value: string][] = [
  ['an empty string', ''],
  ['1 MB of text', ONE_MB],
  ['10 MB of text', TEN_MB],
  ['lone surrogates', LONE_SURROGATES],
  ['only punctuation', ONLY_PUNCTUATION],
  ['only emoji', ONLY_EMOJI],
  ['a regex fragment', REGEX_FRAGMENT],
  ['an SQL fragment', SQL_FRAGMENT],
  ['hasOwnProperty', 'hasOwnProperty'],
  ['toString', 'toString'],
];

describe('ToolIndex under hostile input', () => {
  const index = () =>
    new ToolIndex([
      { id: 'get_weather', description: 'Current weather for a city' },
      ...PROTOTYPE_NAMES.map((id) => ({ id, description: `the ${id} tool` })),
    ]);

  it.each(STRINGS)(
    'search answers %s with hits it holds, within its time',
    (_label, query) => {
      const tools = index();
      const hits = tools.search(query, { topK: 10 });
      for (const hit of hits) expect(tools.has(hit.id)).toBe(true);
      for (const hit of hits) expect(Number.isFinite(hit.score)).toBe(true);
      expect(tools.size).toBe(5);
    },
    SLOW,
  );

  it('finds tools named __proto__, constructor, hasOwnProperty and toString by their id', () => {
    const tools = index();
    for (const id of PROTOTYPE_NAMES) expect(tools.search(id)[0]?.id).toBe(id);
  });

  it.each([
    ['an empty id', { id: '' }],
    ['a number id', { id: 7 }],
    ['null', null],
  ])('add refuses %s with a TypeError and keeps its tools', (_label, tool) => {
    const tools = index();
    expect(() => tools.add(tool as never)).toThrow(TypeError);
    expect(tools.size).toBe(5);
  });

  it.each([
    ['a cyclic schema', cyclicSchema()],
    ['a 10,000-level schema', deepSchema()],
  ])('indexes a tool with %s', (_label, inputSchema) => {
    const tools = index();
    tools.add({ id: 'odd', description: 'odd schema', inputSchema });
    expect(tools.search('odd schema')[0]?.id).toBe('odd');
  });

  // 'the tool' matches the four tools named after prototype members.
  it.each([
    ['topK NaN (the default, 5)', { topK: Number.NaN }, 4],
    ['topK -1', { topK: -1 }, 0],
    ['topK Infinity', { topK: Number.POSITIVE_INFINITY }, 4],
    ['minScore NaN (the default, 0)', { minScore: Number.NaN }, 4],
  ])('search takes %s as a clear setting', (_label, options, count) => {
    expect(index().search('the tool', options)).toHaveLength(count);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('x');
      },
      0,
    ],
    ['answers "yes"', () => 'yes', 0],
  ])('a search filter that %s keeps no tool', (_label, filter, count) => {
    expect(index().search('the tool', { filter: filter as never })).toHaveLength(count);
  });
});
