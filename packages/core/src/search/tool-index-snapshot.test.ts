import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_FORMAT_VERSION } from './snapshot-codec';
import { SnapshotError } from './snapshot-ranking';
import type { ToolDescriptor } from './tool-descriptor';
import { ToolIndex } from './tool-index';
import type { ToolIndexOptions } from './tool-index-options';

/** Queries per data set: an even sample keeps the test quick on a busy machine. */
const DATA_QUERIES = 150;
/** Indexing a whole data set twice takes seconds on a loaded CI machine. */
const DATA_TEST_TIMEOUT = 60_000;

/** The labelled data sets beside the repository, when they are there. */
const DATA_DIR = path.resolve(import.meta.dirname, '../../../../../shared/data');
const dataFiles = existsSync(DATA_DIR)
  ? readdirSync(DATA_DIR).filter((file) => file.endsWith('.json'))
  : [];

const tools: ToolDescriptor[] = [
  { id: 'get_weather', description: 'Get the current weather for a city' },
  { id: 'getForecast', description: 'Multi-day forecast of temperature and rain' },
  { id: 'GitHub.Create-Issue', description: 'Open a new issue in a repository' },
  { id: 'slack__post_message', description: 'Post a message to a channel' },
  {
    id: 'send_invoice',
    description: 'Send a bill to a customer',
    inputSchema: {
      type: 'object',
      properties: { iban: { type: 'string', description: 'Bank account number' } },
    },
  },
  { id: 'crm_lookup', description: 'Find a record', keywords: ['salesforce', 'hubspot'] },
  { id: '天气_查询', description: '查询城市的天气预报' },
  { id: 'café_menu', description: 'Menü du café, Straße ﬁle' },
  { id: '__proto__', description: 'A tool named like a prototype' },
  // Lone surrogates, which UTF-8 cannot carry: the snapshot must keep them exactly.
  { id: 'broken\uD800name', description: 'lone \uDC00 surrogate in a description' },
];

const queries = [
  'weather in Paris',
  'get_weather',
  'github create issue',
  'GitHub.Create-Issue',
  'bank account',
  'salesforce record',
  '天气预报',
  'cafe menu',
  '__proto__',
  'post message channel',
  '',
  'nothing matches this',
  'broken\uD800name',
  'surrogate',
];

/** Every query's hits on both indexes, ids and scores, for `toEqual`. */
function resultsOf(index: ToolIndex, words: readonly string[] = queries) {
  return words.map((query) => index.search(query, { topK: 10, minScore: -1 }));
}

function damaged(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] = copy[at]! ^ 0x5a;
  return copy;
}

/** Where a snapshot's sections start: after the preamble and its header, on an 8-byte boundary. */
function bodyStart(bytes: Uint8Array): number {
  const headerBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  return Math.ceil((12 + headerBytes) / 8) * 8;
}

/** A snapshot's JSON header. */
function headerOf(bytes: Uint8Array): {
  ranking: { segmenter: boolean };
  descriptionBytes: number;
} {
  const headerBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerBytes)));
}

/** Where the description text starts: it is the last section, before the checksum word. */
function descriptionStart(bytes: Uint8Array): number {
  return bytes.length - 4 - Math.ceil(headerOf(bytes).descriptionBytes / 8) * 8;
}

/**
 * The snapshot's checksum: 32-bit FNV-1a over every 32-bit word before the description text
 * (which is checked block by block when read).
 */
function checksumOf(bytes: Uint8Array): number {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, descriptionStart(bytes) / 4);
  let hash = 0x811c9dc5;
  for (const word of words) hash = Math.imul(hash ^ word, 0x01000193);
  return hash >>> 0;
}

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotError);
    return (error as SnapshotError).reason;
  }
  return undefined;
}

describe('ToolIndex snapshots', () => {
  it('restores an index that ranks exactly like the original, ids and scores', () => {
    const index = new ToolIndex(tools);
    const restored = ToolIndex.fromSnapshot(index.toSnapshot());
    expect(resultsOf(restored)).toEqual(resultsOf(index));
    expect(restored.ids()).toEqual(index.ids());
    expect(restored.size).toBe(index.size);
    expect(restored.has('__proto__')).toBe(true);
    expect(restored.unmatchedTerms('weather zebra')).toEqual(['zebra']);
  });

  it('keeps ranking like the original through the same adds and removes', () => {
    const index = new ToolIndex(tools);
    const restored = ToolIndex.fromSnapshot(index.toSnapshot());
    for (const target of [index, restored]) {
      target.remove('get_weather');
      target.add({ id: 'get_weather', description: 'Weather now, and air quality' });
      target.add({ id: 'air_quality', description: 'Air pollution index for a city' });
      target.remove('slack__post_message');
      target.remove('GitHub.Create-Issue');
    }
    const more = [...queries, 'air quality', 'pollution'];
    expect(resultsOf(restored, more)).toEqual(resultsOf(index, more));
    expect(restored.ids()).toEqual(index.ids());
    // And a snapshot of the changed index restores the same ranking again.
    expect(resultsOf(ToolIndex.fromSnapshot(restored.toSnapshot()), more)).toEqual(
      resultsOf(index, more),
    );
  });

  it('keeps ranking like the original after removals compact the index', () => {
    const many = Array.from({ length: 300 }, (_, position) => ({
      id: `tool_${position}`,
      description: `Operation ${position % 7 === 0 ? 'weather' : 'invoice'} number ${position}`,
    }));
    const index = new ToolIndex(many);
    const bytes = index.toSnapshot();
    const before = bytes.slice();
    const restored = ToolIndex.fromSnapshot(bytes);
    for (const target of [index, restored]) {
      for (let position = 0; position < 280; position++) target.remove(`tool_${position}`);
      for (let position = 0; position < 200; position++)
        target.add({ id: `new_${position}`, description: `Fresh weather tool ${position}` });
    }
    const words = ['weather', 'invoice', 'operation 290', 'fresh tool 7'];
    expect(resultsOf(restored, words)).toEqual(resultsOf(index, words));
    expect(bytes).toEqual(before);
  });

  it(
    'round-trips generated catalogs, whatever their text',
    () => {
      const text = fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.constantFrom('getWeatherForecast', 'list_files', 'créer un ticket', '天气预报', 'a b'),
      );
      const tool = fc.record({
        id: text.filter((id) => id.length > 0),
        description: text,
        keywords: fc.array(text, { maxLength: 3 }),
      });
      fc.assert(
        fc.property(
          fc.array(tool, { maxLength: 25 }),
          fc.array(text, { maxLength: 6 }),
          (catalog, words) => {
            const index = new ToolIndex(catalog);
            const restored = ToolIndex.fromSnapshot(index.toSnapshot());
            expect(resultsOf(restored, [...words, ...catalog.map((entry) => entry.id)])).toEqual(
              resultsOf(index, [...words, ...catalog.map((entry) => entry.id)]),
            );
            expect(restored.ids()).toEqual(index.ids());
          },
        ),
        { numRuns: 40 },
      );
    },
    DATA_TEST_TIMEOUT,
  );

  it.each(dataFiles)(
    'ranks every query of %s like the original',
    (file) => {
      const data = JSON.parse(readFileSync(path.join(DATA_DIR, file), 'utf8')) as {
        tools: ToolDescriptor[];
        queries: { query: string }[];
      };
      const index = new ToolIndex(data.tools);
      const restored = ToolIndex.fromSnapshot(index.toSnapshot());
      const step = Math.max(1, Math.floor(data.queries.length / DATA_QUERIES));
      const words = data.queries.filter((_, at) => at % step === 0).map((query) => query.query);
      expect(resultsOf(restored, words)).toEqual(resultsOf(index, words));
    },
    DATA_TEST_TIMEOUT,
  );

  it('restores an empty index, and one built with other ranking options', () => {
    expect(ToolIndex.fromSnapshot(new ToolIndex().toSnapshot()).size).toBe(0);
    const options: ToolIndexOptions = {
      k1: 1.6,
      b: { description: 0.5 },
      fieldWeights: { keywords: 4 },
      idBoost: { exact: 5, word: 2 },
      tokenizer: { stopWords: new Set(['record']), stem: false, cjk: 'both' },
    };
    const index = new ToolIndex(tools, options);
    const restored = ToolIndex.fromSnapshot(index.toSnapshot());
    expect(resultsOf(restored)).toEqual(resultsOf(index));
    expect(resultsOf(restored)).not.toEqual(resultsOf(new ToolIndex(tools)));
    expect(resultsOf(ToolIndex.fromSnapshot(index.toSnapshot(), options))).toEqual(
      resultsOf(index),
    );
  });

  it('reads bytes at any offset, and from a Node Buffer', () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const unaligned = shifted.subarray(3);
    expect(resultsOf(ToolIndex.fromSnapshot(unaligned))).toEqual(resultsOf(new ToolIndex(tools)));
    expect(resultsOf(ToolIndex.fromSnapshot(Buffer.from(bytes)))).toEqual(
      resultsOf(new ToolIndex(tools)),
    );
  });

  it('refuses other ranking options, naming what differs', () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    expect(() => ToolIndex.fromSnapshot(bytes, { k1: 1.5 })).toThrow(
      /k1: snapshot 1.2, options 1.5/,
    );
    expect(reasonOf(() => ToolIndex.fromSnapshot(bytes, { idBoost: { exact: 5 } }))).toBe(
      'options',
    );
    expect(reasonOf(() => ToolIndex.fromSnapshot(bytes, { tokenizer: { stem: false } }))).toBe(
      'options',
    );
    expect(
      reasonOf(() => ToolIndex.fromSnapshot(bytes, { tokenizer: { stopWords: new Set(['a']) } })),
    ).toBe('options');
    // The same ranking spelled differently is the same ranking.
    expect(() =>
      ToolIndex.fromSnapshot(bytes, { b: 0.75, k1: 1.2, fieldWeights: { description: 1 } }),
    ).not.toThrow();
  });

  it('refuses a tokenizer function, which no snapshot can hold or check', () => {
    const custom = new ToolIndex(tools, { tokenizer: (text) => text.split(' ') });
    expect(reasonOf(() => custom.toSnapshot())).toBe('tokenizer');
    const stemmed = new ToolIndex(tools, { tokenizer: { stem: (word) => word } });
    expect(() => stemmed.toSnapshot()).toThrow(/custom stem function/);
    const bytes = new ToolIndex(tools).toSnapshot();
    expect(reasonOf(() => ToolIndex.fromSnapshot(bytes, { tokenizer: (text) => [text] }))).toBe(
      'tokenizer',
    );
  });

  it('refuses another format version', () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    for (const version of [SNAPSHOT_FORMAT_VERSION - 1, SNAPSHOT_FORMAT_VERSION + 1]) {
      const other = bytes.slice();
      new DataView(other.buffer).setUint32(4, version, true);
      expect(() => ToolIndex.fromSnapshot(other)).toThrow(
        new RegExp(`format version ${version}.*reads version ${SNAPSHOT_FORMAT_VERSION}`),
      );
      expect(reasonOf(() => ToolIndex.fromSnapshot(other))).toBe('version');
    }
  });

  it('refuses a snapshot whose tokenizer splits text differently from the one here', () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    const text = new TextDecoder().decode(bytes);
    const analyzer = /"analyzer":"([0-9a-f]{8})"/.exec(text)![1]!;
    const other = analyzer === '00000000' ? '00000001' : '00000000';
    const forged = bytes.slice();
    const at = text.indexOf(`"analyzer":"${analyzer}"`) + '"analyzer":"'.length;
    forged.set(new TextEncoder().encode(other), at);
    new Uint32Array(forged.buffer)[forged.length / 4 - 1] = checksumOf(forged);
    expect(reasonOf(() => ToolIndex.fromSnapshot(forged))).toBe('tokenizer');
  });

  it('probes Intl.Segmenter only for an index with text it splits, and restores either', () => {
    const thai = [...tools, { id: 'thai_news', description: 'ข่าวภาษาไทยวันนี้' }];
    const plain = new ToolIndex(tools).toSnapshot();
    const withThai = new ToolIndex(thai).toSnapshot();
    expect(headerOf(plain).ranking.segmenter).toBe(false);
    expect(headerOf(withThai).ranking.segmenter).toBe(true);
    expect(
      headerOf(new ToolIndex(tools, { tokenizer: { cjk: 'both' } }).toSnapshot()).ranking.segmenter,
    ).toBe(true);
    expect(resultsOf(ToolIndex.fromSnapshot(withThai), [...queries, 'ข่าววันนี้'])).toEqual(
      resultsOf(new ToolIndex(thai), [...queries, 'ข่าววันนี้']),
    );
    expect(ToolIndex.fromSnapshot(withThai).search('ข่าววันนี้')[0]?.id).toBe('thai_news');
  });

  it('refuses forged bytes whose checksum matches but whose numbers point outside the snapshot', () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    const forged = bytes.slice();
    const words = new Uint32Array(forged.buffer);
    words.fill(0xffff_ffff, bodyStart(forged) / 4, descriptionStart(forged) / 4);
    words[words.length - 1] = checksumOf(forged);
    expect(() => ToolIndex.fromSnapshot(forged)).toThrow(/damaged or truncated \(bad strings\)/);
  });

  it('never crashes or hangs on forged bytes with a matching checksum', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    const start = bodyStart(bytes) / 4;
    const end = bytes.length / 4 - 1;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: start, max: end - 1 }),
            value: fc.oneof(
              fc.integer({ min: 0, max: 0xffff_ffff }),
              fc.integer({ min: 0, max: 64 }),
            ),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        (changes) => {
          const forged = bytes.slice();
          const words = new Uint32Array(forged.buffer);
          for (const { at, value } of changes) words[at] = value;
          words[end] = checksumOf(forged);
          let index: ToolIndex;
          try {
            index = ToolIndex.fromSnapshot(forged);
          } catch (error) {
            expect(error).toBeInstanceOf(SnapshotError);
            return;
          }
          // Whatever it now ranks, it answers, or refuses damaged description text clearly.
          try {
            resultsOf(index);
            index.ids();
            index.remove('get_weather');
            index.add({ id: 'added', description: 'weather in a city' });
            index.toSnapshot();
          } catch (error) {
            expect(error).toBeInstanceOf(SnapshotError);
            expect((error as SnapshotError).message).toMatch(/description text, block \d+/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses damaged, truncated and foreign bytes', () => {
    const bytes = new ToolIndex(tools).toSnapshot();
    const text = descriptionStart(bytes);
    for (const at of [12, 40, Math.floor(text / 2), text - 20, text - 1, bytes.length - 1]) {
      expect(reasonOf(() => ToolIndex.fromSnapshot(damaged(bytes, at)))).toBe('corrupt');
    }
    for (const length of [bytes.length - 4, bytes.length - 1, 20]) {
      expect(reasonOf(() => ToolIndex.fromSnapshot(bytes.subarray(0, length)))).toBe('corrupt');
    }
    expect(reasonOf(() => ToolIndex.fromSnapshot(new Uint8Array(0)))).toBe('format');
    expect(reasonOf(() => ToolIndex.fromSnapshot(new TextEncoder().encode('{"tools": []}')))).toBe(
      'format',
    );
    expect(reasonOf(() => ToolIndex.fromSnapshot('TSIX' as never))).toBe('format');
    expect(reasonOf(() => ToolIndex.fromSnapshot(undefined as never))).toBe('format');
  });

  it('checks description text block by block, when a search first returns it', () => {
    // About 60 kB of descriptions: four blocks of 16 kB.
    const many = Array.from({ length: 600 }, (_, n) => ({
      id: `tool_${n}`,
      description: `Tool number ${n} ${'does something useful with words '.repeat(3)}`,
    }));
    const original = new ToolIndex(many);
    const bytes = original.toSnapshot();
    // Damage a byte inside the last tool's description, in the last block: restoring reads no
    // description text, and a hit described in an intact block ranks and reads as before.
    const at = bytes.length - 4 - 30;
    const block = Math.floor((at - descriptionStart(bytes)) / 16_384);
    expect(block).toBeGreaterThan(0);
    const restored = ToolIndex.fromSnapshot(damaged(bytes, at));
    expect(restored.search('tool_0', { topK: 1 })).toEqual(original.search('tool_0', { topK: 1 }));
    let refusal: unknown;
    try {
      restored.search('tool_599', { topK: 1 });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SnapshotError);
    expect((refusal as SnapshotError).reason).toBe('corrupt');
    expect((refusal as SnapshotError).message).toMatch(
      `restored from is damaged (description text, block ${block}); rebuild it`,
    );
    // The intact snapshot answers the same search.
    expect(ToolIndex.fromSnapshot(bytes).search('tool_599', { topK: 1 })).toEqual(
      original.search('tool_599', { topK: 1 }),
    );
  });
});
