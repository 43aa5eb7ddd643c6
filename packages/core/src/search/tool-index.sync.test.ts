import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from './tool-descriptor';
import { ToolIndex } from './tool-index';

/** Queries per data set: an even sample keeps the test quick on a busy machine. */
const DATA_QUERIES = 150;
/** Indexing a whole data set three times takes seconds on a loaded CI machine. */
const DATA_TEST_TIMEOUT = 60_000;
/** The labelled data sets beside the repository, when they are there. */
const DATA_DIR = path.resolve(import.meta.dirname, '../../../../../shared/data');
const dataFiles = existsSync(DATA_DIR)
  ? readdirSync(DATA_DIR).filter((file) => file.endsWith('.json'))
  : [];

const tools: ToolDescriptor[] = [
  { id: 'get_weather', description: 'Current weather for a city' },
  {
    id: 'notify',
    description: 'Send an email to a recipient',
    inputSchema: {
      type: 'object',
      properties: {
        recipient: { type: 'string', description: 'Mailbox address' },
        priority: { type: 'string', enum: ['low', 'high'] },
      },
      required: ['recipient'],
    },
  },
  { id: 'crm_lookup', description: 'Find a record', keywords: ['salesforce', 'hubspot'] },
  { id: '天气_查询', description: '查询城市的天气预报' },
  { id: '__proto__', description: 'A tool named like a prototype' },
];

function resultsOf(index: ToolIndex, queries: readonly string[]) {
  return queries.map((query) => index.search(query, { topK: 10, minScore: -1 }));
}

const QUERIES = [
  'weather',
  'send email',
  'recipient',
  'mailbox',
  'delete repository',
  'repository name',
  'salesforce',
  'zendesk',
  'urgent',
  '天气预报',
  '__proto__',
];

describe('ToolIndex.sync', () => {
  it('re-indexes a tool whose text changed under the same id: the new text is found, the old not', () => {
    const restored = ToolIndex.fromSnapshot(new ToolIndex(tools).toSnapshot());
    const changed = tools.map((tool) =>
      tool.id === 'notify'
        ? {
            id: 'notify',
            description: 'Delete a GitHub repository',
            inputSchema: { type: 'object', properties: { repository_name: { type: 'string' } } },
          }
        : tool,
    );
    expect(restored.sync(changed)).toEqual({ added: [], changed: ['notify'], removed: [] });
    expect(restored.search('delete repository')[0]).toMatchObject({
      id: 'notify',
      description: 'Delete a GitHub repository',
    });
    const ids = (query: string) => restored.search(query).map((hit) => hit.id);
    expect(ids('send email')).not.toContain('notify');
    expect(ids('recipient')).not.toContain('notify');
    expect(resultsOf(restored, QUERIES)).toEqual(resultsOf(new ToolIndex(changed), QUERIES));
  });

  it('notices a change in any text the index ranks by', () => {
    const variants: [string, (tool: ToolDescriptor) => ToolDescriptor][] = [
      ['description', (tool) => ({ ...tool, description: 'Send a text message' })],
      [
        'a parameter name',
        (tool) => ({
          ...tool,
          inputSchema: { type: 'object', properties: { mailbox: { type: 'string' } } },
        }),
      ],
      [
        'a parameter description',
        (tool) => ({
          ...tool,
          inputSchema: {
            type: 'object',
            properties: {
              recipient: { type: 'string', description: 'Phone number' },
              priority: { type: 'string', enum: ['low', 'high'] },
            },
          },
        }),
      ],
      [
        'an enum value',
        (tool) => ({
          ...tool,
          inputSchema: {
            type: 'object',
            properties: {
              recipient: { type: 'string', description: 'Mailbox address' },
              priority: { type: 'string', enum: ['low', 'urgent'] },
            },
          },
        }),
      ],
      ['keywords', (tool) => ({ ...tool, keywords: ['urgent'] })],
    ];
    for (const [what, change] of variants) {
      const index = ToolIndex.fromSnapshot(new ToolIndex(tools).toSnapshot());
      const catalog = tools.map((tool) => (tool.id === 'notify' ? change(tool) : tool));
      expect({ what, changes: index.sync(catalog) }).toEqual({
        what,
        changes: { added: [], changed: ['notify'], removed: [] },
      });
      expect(resultsOf(index, QUERIES)).toEqual(resultsOf(new ToolIndex(catalog), QUERIES));
    }
  });

  it('leaves alone tools whose ranked text is the same, whatever else differs', () => {
    const index = ToolIndex.fromSnapshot(new ToolIndex(tools).toSnapshot());
    const same = [...tools].reverse().map((tool) =>
      tool.id === 'notify'
        ? {
            ...tool,
            // Schema keywords the index does not read.
            inputSchema: { ...tool.inputSchema, required: [], title: 'Mailer', $comment: 'v2' },
          }
        : tool.id === '__proto__'
          ? { ...tool, keywords: [42 as unknown as string] }
          : tool,
    );
    expect(index.sync(same)).toEqual({ added: [], changed: [], removed: [] });
    const noDescription = ToolIndex.fromSnapshot(new ToolIndex([{ id: 'bare' }]).toSnapshot());
    expect(noDescription.sync([{ id: 'bare', description: '' }]).changed).toEqual([]);
  });

  it('tells texts apart wherever one ends and the next begins', () => {
    const index = new ToolIndex([{ id: 'split', description: 'ab', keywords: ['c'] }]);
    expect(index.sync([{ id: 'split', description: 'a', keywords: ['bc'] }]).changed).toEqual([
      'split',
    ]);
    expect(index.sync([{ id: 'split', description: 'abc' }]).changed).toEqual(['split']);
    expect(index.sync([{ id: 'split', description: 'abc', keywords: [''] }]).changed).toEqual([
      'split',
    ]);
  });

  it('adds, removes and takes the later of two tools with one id, on any index', () => {
    const index = new ToolIndex(tools);
    const catalog: ToolDescriptor[] = [
      ...tools.filter((tool) => tool.id !== 'crm_lookup'),
      { id: 'calendar', description: 'Create a calendar event' },
      { id: 'get_weather', description: 'Weather and air quality' },
      { id: 'get_weather', description: 'Current weather for a city' },
    ];
    expect(index.sync(catalog)).toEqual({
      added: ['calendar'],
      changed: [],
      removed: ['crm_lookup'],
    });
    const expected = new ToolIndex(catalog);
    expect(resultsOf(index, [...QUERIES, 'calendar event', 'air quality'])).toEqual(
      resultsOf(expected, [...QUERIES, 'calendar event', 'air quality']),
    );
    expect(index.sync([])).toEqual({
      added: [],
      changed: [],
      removed: expect.arrayContaining(['calendar', 'notify']),
    });
    expect(index.size).toBe(0);
  });

  it('refuses a tool without an id before changing anything', () => {
    const index = ToolIndex.fromSnapshot(new ToolIndex(tools).toSnapshot());
    const bad = [
      { id: 'new_tool', description: 'New' },
      { description: 'no id' } as ToolDescriptor,
    ];
    expect(() => index.sync(bad)).toThrow(/ToolIndex\.sync: a tool needs a non-empty string id/);
    expect(() => index.sync([null as unknown as ToolDescriptor])).toThrow(TypeError);
    expect(index.has('new_tool')).toBe(false);
    expect(resultsOf(index, QUERIES)).toEqual(resultsOf(new ToolIndex(tools), QUERIES));
  });

  it('keeps a synced snapshot in step: its own snapshot restores the same ranking', () => {
    const restored = ToolIndex.fromSnapshot(new ToolIndex(tools).toSnapshot());
    const catalog = tools.map((tool) =>
      tool.id === 'get_weather' ? { ...tool, description: 'Air quality index' } : tool,
    );
    restored.sync(catalog);
    const again = ToolIndex.fromSnapshot(restored.toSnapshot());
    expect(again.sync(catalog)).toEqual({ added: [], changed: [], removed: [] });
    expect(resultsOf(again, QUERIES)).toEqual(resultsOf(new ToolIndex(catalog), QUERIES));
  });

  it('hashes a tool while indexing it as it does when comparing, whatever the tool', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('getWeather', '天气预报', '\uD800', '', '__proto__'),
    );
    const schema = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'xsmall' },
        fc.record(
          {
            type: fc.constantFrom('object', 'string'),
            description: text,
            title: text,
            enum: fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }),
            properties: fc.dictionary(text, tie('node'), { maxKeys: 3 }),
            items: tie('node'),
            anyOf: fc.array(tie('node'), { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
        fc.constant(null),
        text,
      ),
    })).node;
    const tool = fc.record(
      {
        id: text.filter((id) => id.length > 0),
        description: fc.oneof(text, fc.constant(undefined)),
        inputSchema: schema,
        keywords: fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }),
      },
      { requiredKeys: ['id'] },
    ) as fc.Arbitrary<ToolDescriptor>;
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 12 }), (catalog) => {
        const index = ToolIndex.fromSnapshot(new ToolIndex(catalog).toSnapshot());
        expect(index.sync(catalog)).toEqual({ added: [], changed: [], removed: [] });
      }),
      { numRuns: 40 },
    );
    // Schemas the walk cuts short: a cycle, and nesting far past its depth.
    const cyclic: Record<string, unknown> = { type: 'object', description: 'loop' };
    cyclic.properties = { self: cyclic, name: { type: 'string', description: 'A name' } };
    let deep: Record<string, unknown> = { type: 'string', description: 'bottom' };
    for (let level = 0; level < 10_000; level++) deep = { type: 'object', properties: { deep } };
    const hostile = [
      { id: 'cyclic', description: 'Cyclic', inputSchema: cyclic },
      { id: 'deep', description: 'Deep', inputSchema: deep },
    ];
    const restored = ToolIndex.fromSnapshot(new ToolIndex(hostile).toSnapshot());
    expect(restored.sync(hostile)).toEqual({ added: [], changed: [], removed: [] });
  });

  it('ranks like a fresh index of any drifted catalog', { timeout: PROPERTY_TEST_TIMEOUT }, () => {
    const word = fc.constantFrom('weather', 'email', 'repository', 'city', 'delete', '天气', 'a');
    const text = fc.array(word, { maxLength: 4 }).map((words) => words.join(' '));
    const tool = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      description: text,
      keywords: fc.array(text, { maxLength: 2 }),
    });
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 8 }),
        fc.array(tool, { maxLength: 8 }),
        (old, now) => {
          const index = ToolIndex.fromSnapshot(new ToolIndex(old).toSnapshot());
          index.sync(now);
          const queries = ['weather city', 'email', 'delete repository', '天气', 'a', 'b'];
          expect(resultsOf(index, queries)).toEqual(resultsOf(new ToolIndex(now), queries));
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each(dataFiles)(
    'ranks every query of %s like a fresh index after the catalog drifted from the snapshot',
    (file) => {
      const data = JSON.parse(readFileSync(path.join(DATA_DIR, file), 'utf8')) as {
        tools: ToolDescriptor[];
        queries: { query: string }[];
      };
      const restored = ToolIndex.fromSnapshot(new ToolIndex(data.tools).toSnapshot());
      // Every 7th tool takes another tool's description, every 11th gains a parameter, every
      // 13th is gone, and 20 new tools join under new ids.
      const count = data.tools.length;
      const drifted: ToolDescriptor[] = [];
      const expected = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
      for (const [position, tool] of data.tools.entries()) {
        if (position % 13 === 0) {
          expected.removed.push(tool.id);
          continue;
        }
        let next = tool;
        if (position % 7 === 0) {
          next = {
            ...next,
            description: data.tools[(position * 31 + 5) % count]!.description ?? '',
          };
        }
        if (position % 11 === 0) {
          const properties = (next.inputSchema?.properties ?? {}) as Record<string, unknown>;
          next = {
            ...next,
            inputSchema: {
              ...next.inputSchema,
              properties: { ...properties, drift_marker: { type: 'string', description: 'Zebra' } },
            },
          };
        }
        if (next !== tool && next.description !== tool.description) expected.changed.push(tool.id);
        else if (next !== tool && position % 11 === 0) expected.changed.push(tool.id);
        drifted.push(next);
      }
      for (let n = 0; n < 20; n++) {
        const source = data.tools[(n * 97 + 3) % count]!;
        drifted.push({ ...source, id: `${source.id}_copy_${n}` });
        expected.added.push(`${source.id}_copy_${n}`);
      }
      const changes = restored.sync(drifted);
      expect(changes.added).toEqual(expected.added);
      expect(changes.removed).toEqual(expected.removed);
      expect([...changes.changed].sort()).toEqual([...expected.changed].sort());
      const step = Math.max(1, Math.floor(data.queries.length / DATA_QUERIES));
      const queries = [
        ...data.queries.filter((_, at) => at % step === 0).map((query) => query.query),
        'drift marker zebra',
        ...expected.changed.slice(0, 20),
      ];
      expect(resultsOf(restored, queries)).toEqual(resultsOf(new ToolIndex(drifted), queries));
    },
    DATA_TEST_TIMEOUT,
  );
});
