import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { createTokenizer } from './tokenizer';
import type { ToolDescriptor } from './tool-descriptor';
import { ToolIndex } from './tool-index';

const tools: ToolDescriptor[] = [
  { id: 'get_weather', description: 'Get the current weather for a city' },
  { id: 'getForecast', description: 'Multi-day forecast of temperature and rain' },
  { id: 'github.create-issue', description: 'Open a new issue in a repository' },
  { id: 'slack__post_message', description: 'Post a message to a channel' },
  {
    id: 'send_invoice',
    description: 'Send a bill to a customer',
    inputSchema: {
      type: 'object',
      properties: {
        customer: {
          type: 'object',
          properties: { iban: { type: 'string', description: 'Bank account number' } },
        },
        lines: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' } } },
        },
      },
    },
  },
  { id: 'crm_lookup', description: 'Find a record', keywords: ['salesforce', 'hubspot'] },
];

describe('ToolIndex', () => {
  it('ranks the matching tool first', () => {
    const index = new ToolIndex(tools);
    expect(index.search('weather in Paris')[0]?.id).toBe('get_weather');
    expect(index.search('post a slack message')[0]?.id).toBe('slack__post_message');
  });

  it('finds tools by the words of camelCase, dotted and kebab ids', () => {
    const index = new ToolIndex(tools);
    expect(index.search('forecast')[0]?.id).toBe('getForecast');
    expect(index.search('create issue')[0]?.id).toBe('github.create-issue');
  });

  it('searches nested parameter names, parameter descriptions and keywords', () => {
    const index = new ToolIndex(tools);
    expect(index.search('iban')[0]?.id).toBe('send_invoice');
    expect(index.search('bank account')[0]?.id).toBe('send_invoice');
    expect(index.search('sku')[0]?.id).toBe('send_invoice');
    expect(index.search('hubspot')[0]?.id).toBe('crm_lookup');
  });

  it("adds +5 for a query equal to the id and +2 for each id word (Mastra's weights)", () => {
    const plain = new ToolIndex(tools, { idBoost: { exact: 0, word: 0 } });
    const boosted = new ToolIndex(tools, { idBoost: { exact: 5, word: 2 } });
    const base = plain
      .search('get_weather', { topK: 10 })
      .find((hit) => hit.id === 'get_weather')!.score;
    const withBoost = boosted
      .search('get_weather', { topK: 10 })
      .find((hit) => hit.id === 'get_weather')!.score;
    // "get" and "weather" are both id words (+2 each), and the whole query is the id (+5).
    expect(withBoost - base).toBeCloseTo(9, 6);
  });

  it('matches the exact id case-insensitively, wrapped in quotes, inside a longer query', () => {
    const index = new ToolIndex(tools, { idBoost: { exact: 5, word: 0 } });
    const plain = new ToolIndex(tools, { idBoost: { exact: 0, word: 0 } });
    const score = (of: ToolIndex, query: string) =>
      of.search(query, { topK: 10 }).find((hit) => hit.id === 'getForecast')?.score ?? 0;
    expect(
      score(index, 'please load `GETFORECAST`') - score(plain, 'please load `GETFORECAST`'),
    ).toBeCloseTo(5, 6);
  });

  it('boosts every id sharing an exact key, through removals and compaction', () => {
    const exactOnly = { idBoost: { exact: 5, word: 0 } };
    const spellings = ['Get_Weather', 'GET_WEATHER', 'get_weather', 'Get_weather'];
    const fillers = Array.from({ length: 60 }, (_, n) => ({ id: `filler_${n}`, description: 'x' }));
    const index = new ToolIndex(
      [...fillers, ...spellings.map((id) => ({ id, description: 'weather' }))],
      exactOnly,
    );
    const boosted = (of: ToolIndex) =>
      of
        .search('get_weather', { topK: 50 })
        .filter((hit) => hit.score > 5)
        .map((hit) => hit.id)
        .sort();
    expect(boosted(index)).toEqual([...spellings].sort());
    index.remove('GET_WEATHER');
    expect(boosted(index)).toEqual(['Get_Weather', 'Get_weather', 'get_weather']);
    index.remove('Get_weather');
    index.remove('get_weather');
    expect(boosted(index)).toEqual(['Get_Weather']);
    // 64 slots, nearly all removed: the next add renumbers them; the keys follow their tools.
    for (const filler of fillers) index.remove(filler.id);
    index.add({ id: 'GET_weather', description: 'weather' });
    expect(boosted(index)).toEqual(['GET_weather', 'Get_Weather']);
    index.remove('Get_Weather');
    expect(boosted(index)).toEqual(['GET_weather']);
  });

  it('does not boost an id for a word it merely contains', () => {
    const index = new ToolIndex(
      [
        { id: 'get_weather', description: 'x' },
        { id: 'other', description: 'the weather' },
      ],
      { idBoost: { exact: 5, word: 2 } },
    );
    expect(index.search('the')).toEqual([]);
    expect(index.search('eat')).toEqual([]);
  });

  it('applies boosts to every candidate, so a filter never changes the ranking of the rest', () => {
    const many = Array.from({ length: 60 }, (_, n) => ({
      id: `tool_${n}`,
      description: `weather report number ${n}`,
    }));
    const index = new ToolIndex([...many, { id: 'weather', description: 'unrelated text' }]);
    const all = index.search('weather', { topK: 100 }).map((hit) => hit.id);
    const filtered = index
      .search('weather', { topK: 100, filter: (id) => id !== 'tool_3' })
      .map((hit) => hit.id);
    expect(filtered).toEqual(all.filter((id) => id !== 'tool_3'));
    expect(all[0]).toBe('weather');
  });

  it('replaces a tool added twice and removes tools', () => {
    const index = new ToolIndex(tools);
    index.add({ id: 'get_weather', description: 'Translate text between languages' });
    expect(index.size).toBe(tools.length);
    expect(index.search('translate')[0]?.id).toBe('get_weather');
    expect(index.search('weather').map((hit) => hit.id)).not.toContain('other');
    expect(index.remove('get_weather')).toBe(true);
    expect(index.remove('get_weather')).toBe(false);
    expect(index.has('get_weather')).toBe(false);
    expect(index.search('translate')).toEqual([]);
  });

  it('builds from a list with repeated ids exactly as one tool at a time', () => {
    const docs = [
      ...tools,
      { id: 'get_weather', description: 'Translate text' },
      ...tools.slice(2, 4),
    ];
    const bulk = new ToolIndex(docs);
    const incremental = new ToolIndex();
    for (const doc of docs) incremental.add(doc);
    expect(bulk.size).toBe(tools.length);
    for (const query of ['weather', 'translate', 'issue', 'message channel', 'iban']) {
      expect(bulk.search(query, { topK: 10 })).toEqual(incremental.search(query, { topK: 10 }));
    }
  });

  it('ranks the same after many removals as a fresh index', () => {
    const docs = Array.from({ length: 300 }, (_, n) => ({
      id: `t${n}`,
      description: `alpha ${n % 7 === 0 ? 'beta' : 'gamma'} item${n % 13}`,
    }));
    const incremental = new ToolIndex(docs);
    for (let n = 0; n < 300; n += 2) incremental.remove(`t${n}`);
    const fresh = new ToolIndex(docs.filter((_, n) => n % 2 === 1));
    for (const query of ['beta', 'gamma item3', 'alpha']) {
      expect(incremental.search(query, { topK: 20 })).toEqual(fresh.search(query, { topK: 20 }));
    }
  });

  it('honours topK, minScore and a filter that throws', () => {
    const index = new ToolIndex(tools);
    expect(index.search('weather forecast', { topK: 1 })).toHaveLength(1);
    expect(index.search('weather', { topK: 0 })).toEqual([]);
    expect(index.search('weather', { minScore: 1000 })).toEqual([]);
    const hits = index.search('weather forecast', {
      filter: (id) => {
        if (id === 'get_weather') throw new Error('boom');
        return true;
      },
    });
    expect(hits.map((hit) => hit.id)).toEqual(['getForecast']);
  });

  it('answers odd queries without throwing', () => {
    const index = new ToolIndex(tools);
    expect(index.search('')).toEqual([]);
    expect(index.search('   \n\t')).toEqual([]);
    expect(index.search('🔥🔥🔥')).toEqual([]);
    expect(index.search('.*(a+)+$ [\\]')).toEqual([]);
    expect(index.search('weather '.repeat(20_000))[0]?.id).toBe('get_weather');
  });

  it('accepts __proto__, constructor and toString as ids', () => {
    const index = new ToolIndex([
      { id: '__proto__', description: 'prototype tool' },
      { id: 'constructor', description: 'builds things' },
      { id: 'toString', description: 'turns things into text' },
    ]);
    expect(index.search('__proto__')[0]?.id).toBe('__proto__');
    expect(index.search('constructor')[0]?.id).toBe('constructor');
    expect(index.search('text')[0]?.id).toBe('toString');
    expect(index.has('hasOwnProperty')).toBe(false);
  });

  it('defaults to an exact-id boost of 1 and a word boost of 0.5', () => {
    const plain = new ToolIndex(tools, { idBoost: { exact: 0, word: 0 } });
    const score = (of: ToolIndex, query: string) =>
      of.search(query, { topK: 10 }).find((hit) => hit.id === 'get_weather')!.score;
    expect(score(new ToolIndex(tools), 'get_weather') - score(plain, 'get_weather')).toBeCloseTo(
      2,
      6,
    );
  });

  it('builds exactly as one tool at a time, whatever the counts of a term', () => {
    const docs = [
      // "weather" in the id, the description and a parameter: counts in three fields.
      {
        id: 'get_weather',
        description: 'Weather now',
        inputSchema: { properties: { weather: { description: 'weather kind' } } },
      },
      // Ten of one word, and 300 (past the 255 a field counts) of another.
      { id: 'echo', description: `${'echo '.repeat(10)}${'ping '.repeat(300)}` },
      { id: 'plain', description: 'one weather ping' },
    ];
    const bulk = new ToolIndex(docs);
    const incremental = new ToolIndex();
    for (const doc of docs) incremental.add(doc);
    for (const query of ['weather', 'echo', 'ping', 'weather kind', 'get_weather']) {
      expect(bulk.search(query, { topK: 10 })).toEqual(incremental.search(query, { topK: 10 }));
    }
    expect(bulk.search('echo')[0]?.id).toBe('echo');
  });

  it('lists its ids in insertion order, a replaced tool last', () => {
    const index = new ToolIndex(tools);
    index.add({ id: 'get_weather', description: 'again' });
    expect(index.ids()).toEqual([
      ...tools.map((tool) => tool.id).filter((id) => id !== 'get_weather'),
      'get_weather',
    ]);
  });

  it('rejects a tool without an id', () => {
    expect(() => new ToolIndex([{ id: '' }])).toThrow(/non-empty string id/);
  });

  it('finds Chinese descriptions with Chinese queries', () => {
    const index = new ToolIndex([
      { id: 'get_weather', description: '查询指定城市的天气预报' },
      { id: 'book_flight', description: '预订航班机票' },
    ]);
    expect(index.search('北京明天的天气')[0]?.id).toBe('get_weather');
    expect(index.search('帮我订一张机票')[0]?.id).toBe('book_flight');
  });

  it('ranks Chinese text the same through its bigram table as through plain term lists', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    // A wrapped tokenizer returns the same terms but hides the scan the index reads bigrams by.
    const tokenize = createTokenizer();
    const plain = { tokenizer: (text: string) => tokenize(text) };
    // Mostly text NFKC leaves alone (read by the scan); some with kana or full-width letters.
    const inert = fc.constantFrom(...'天气预报查询城市温度东京的 apiKey，（）'.split(''));
    const other = fc.constantFrom(...'タワーＡé'.split(''));
    const text = fc
      .array(fc.oneof({ arbitrary: inert, weight: 30 }, { arbitrary: other, weight: 1 }), {
        minLength: 1,
        maxLength: 24,
      })
      .map((chars) => chars.join(''));
    const tool = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), description: text });
    fc.assert(
      fc.property(
        fc.array(tool, { maxLength: 12 }),
        fc.array(tool, { maxLength: 6 }),
        fc.array(text, { minLength: 1, maxLength: 5 }),
        (first, later, queries) => {
          const fast = new ToolIndex(first);
          const slow = new ToolIndex(first, plain);
          // After the bulk build the table starts over; after a restore it starts empty.
          const restored = ToolIndex.fromSnapshot(fast.toSnapshot());
          for (const doc of later) for (const index of [fast, slow, restored]) index.add(doc);
          // A snapshot of a restored index names its bigrams from both the snapshot and the table.
          const again = ToolIndex.fromSnapshot(restored.toSnapshot());
          for (const query of queries) {
            const expected = slow.search(query, { topK: 10 });
            expect(fast.search(query, { topK: 10 })).toEqual(expected);
            expect(restored.search(query, { topK: 10 })).toEqual(expected);
            expect(again.search(query, { topK: 10 })).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds the terms of thousands of distinct words as a plain tokenizer does', () => {
    // Enough words that the index's word table probes past other words of the same length.
    const tokenize = createTokenizer();
    const word = (n: number) => `w${(n * 7919) % 100_003}`;
    const docs = Array.from({ length: 3_000 }, (_, n) => ({
      id: `${word(n)}_${word(n + 1)}`,
      description: `${word(n + 2)} ${word(n + 3)} getItem${n % 50}`,
    }));
    const fast = new ToolIndex(docs);
    const slow = new ToolIndex(docs, { tokenizer: (text) => tokenize(text) });
    for (let n = 0; n < 3_000; n += 97) {
      const query = `${word(n)} ${word(n + 3)} item${n % 50}`;
      expect(fast.search(query, { topK: 5 })).toEqual(slow.search(query, { topK: 5 }));
    }
    expect(fast.search(word(1500), { topK: 3 }).map((hit) => hit.id)).toContain(docs[1500]!.id);
  });

  it('finds Japanese descriptions with Japanese queries', () => {
    const index = new ToolIndex([
      { id: 'get_weather', description: '指定した都市の天気予報を取得します' },
      { id: 'send_mail', description: 'メールを送信します' },
    ]);
    expect(index.search('東京の天気')[0]?.id).toBe('get_weather');
    expect(index.search('メール送信')[0]?.id).toBe('send_mail');
  });

  it('weights fields as configured', () => {
    const docs = [
      { id: 'a', description: 'report', keywords: [] },
      { id: 'b', description: 'other', keywords: ['report'] },
    ];
    expect(new ToolIndex(docs, { fieldWeights: { keywords: 5 } }).search('report')[0]?.id).toBe(
      'b',
    );
    expect(new ToolIndex(docs, { fieldWeights: { keywords: 0.1 } }).search('report')[0]?.id).toBe(
      'a',
    );
  });

  it('rejects invalid options', () => {
    expect(() => new ToolIndex([], { k1: 0 })).toThrow(/k1/);
    expect(() => new ToolIndex([], { b: 2 })).toThrow(/b\.id/);
    expect(() => new ToolIndex([], { idBoost: { exact: -1 } })).toThrow(/idBoost\.exact/);
  });

  it('returns deterministic, sorted, finite scores for any query', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    const index = new ToolIndex(tools);
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 0, max: 10 }), (query, topK) => {
        const hits = index.search(query, { topK });
        expect(index.search(query, { topK })).toEqual(hits);
        expect(hits.length).toBeLessThanOrEqual(topK);
        for (const [position, hit] of hits.entries()) {
          expect(Number.isFinite(hit.score)).toBe(true);
          expect(hit.score).toBeGreaterThan(0);
          const next = hits[position + 1];
          if (next)
            expect(hit.score > next.score || (hit.score === next.score && hit.id < next.id)).toBe(
              true,
            );
        }
      }),
    );
  });

  it('breaks ties by id whatever the insertion order', () => {
    const docs = ['c', 'a', 'b'].map((id) => ({ id, description: 'same text' }));
    expect(new ToolIndex(docs).search('same').map((hit) => hit.id)).toEqual(['a', 'b', 'c']);
    expect(new ToolIndex([...docs].reverse()).search('same').map((hit) => hit.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('reports query words that match nothing', () => {
    expect(new ToolIndex(tools).unmatchedTerms('the weather on mars')).toEqual(['mars']);
  });
});
