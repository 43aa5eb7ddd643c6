import { describe, expect, it, vi } from 'vitest';
import type { EmbedFunction } from '../embedding/embed-function';
import { EmbeddingError } from '../embedding/embed-function';
import { toEmbeddingText } from '../embedding/embedding-text';
import type { SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
  deny?: boolean;
}

const catalog: Record<string, FakeTool> = {
  precipitation_forecast: {
    description: 'Chance of precipitation and showers for the coming days',
  },
  get_temperature: { description: 'Current temperature in degrees for a city' },
  convert_currency: {
    description: 'Convert an amount between currencies at today’s exchange rate',
  },
  send_email: { description: 'Send an email to a recipient' },
  github_create_issue: { description: 'Open an issue in a GitHub repository' },
  slack_post_message: { description: 'Post a message to a Slack channel' },
};

/**
 * A deterministic embedder that knows a handful of synonyms: a text's vector counts its words per
 * concept, so "umbrella" and "precipitation" land together though they share no letters.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  ['umbrella', 'rain', 'precipitation', 'showers', 'wet', 'drizzle'],
  ['temperature', 'hot', 'cold', 'warm', 'degrees', 'chilly'],
  ['currency', 'currencies', 'money', 'exchange', 'euros', 'dollars', 'cash'],
  ['email', 'mail', 'inbox', 'recipient', 'letter'],
  ['issue', 'bug', 'repository', 'github', 'ticket'],
  ['message', 'slack', 'channel', 'chat', 'ping'],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  // The last component keeps texts without a known word off the zero vector.
  const vector = new Array<number>(CONCEPTS.length + 1).fill(0);
  vector[CONCEPTS.length] = 0.05;
  for (const word of words) {
    CONCEPTS.forEach((concept, position) => {
      if (concept.includes(word)) vector[position]! += 1;
    });
  }
  return vector;
}

/** The synonym embedder, recording every call. */
function createEmbedder(overrides: { failWith?: () => Promise<number[][]> } = {}) {
  const calls: string[][] = [];
  const embed = vi.fn<EmbedFunction>(async (texts) => {
    calls.push([...texts]);
    if (overrides.failWith) return overrides.failWith();
    return texts.map(conceptVector);
  });
  return { embed, calls };
}

type Options = Partial<ToolSearchEngineOptions<FakeTool, unknown>>;

function engineFor(options: Options = {}, tools: Record<string, FakeTool> = catalog) {
  return createToolSearchEngine<FakeTool>({
    tools,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

const search = (session: ToolSearchSession<FakeTool>, query: string) =>
  session.metaTools
    .find((tool) => tool.name === 'search_tools')!
    .execute({ query }) as Promise<SearchToolsOutput>;
const names = (output: SearchToolsOutput) => output.results.map((result) => result.name);
const toolTexts = (tools: Record<string, FakeTool>) =>
  Object.entries(tools).map(([id, tool]) => toEmbeddingText({ id, description: tool.description }));

describe('search_tools with embed', () => {
  it('finds a paraphrase only with fusion', async () => {
    const query = 'will I need an umbrella?';
    expect(names(await search(engineFor().createSession(), query))).toEqual([]);
    const { embed } = createEmbedder();
    const fused = await search(engineFor({ embed }).createSession(), query);
    expect(names(fused)[0]).toBe('precipitation_forecast');
  });

  it('keeps words that match ahead: a tool first in both rankings scores 1', async () => {
    const { embed } = createEmbedder();
    const output = await search(engineFor({ embed }).createSession(), 'currency exchange rate');
    expect(output.results[0]).toMatchObject({ name: 'convert_currency', score: 1 });
    const scores = output.results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    for (const score of scores) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });

  it('scores by reciprocal-rank fusion with the configured k and weights', async () => {
    const { embed } = createEmbedder();
    // Words find only the email tool; meaning ranks the email tool first too, then the rest.
    const session = engineFor({
      embed,
      fusion: { k: 10, textWeight: 3, vectorWeight: 1 },
    }).createSession();
    const output = await search(session, 'send mail');
    const best = (3 + 1) / 11;
    expect(output.results[0]).toMatchObject({ name: 'send_email', score: 1 });
    // Second by meaning and absent from BM25F: 1 / (10 + 2), normalized.
    expect(output.results[1]!.score).toBeCloseTo(1 / 12 / best, 2);
  });

  it('embeds each tool text once, across sessions, steps and searches, and each query once', async () => {
    const { embed, calls } = createEmbedder();
    const engine = engineFor({ embed });
    for (const threadId of ['a', 'b']) {
      const session = engine.createSession({ threadId });
      await search(session, 'umbrella');
      await search(session, 'send mail');
    }
    const seen = calls.flat();
    expect(seen.filter((text) => !['umbrella', 'send mail'].includes(text)).sort()).toEqual(
      toolTexts(catalog).sort(),
    );
    // Two distinct queries: the repeats in the second thread reuse their vectors.
    expect(seen.filter((text) => text === 'umbrella')).toHaveLength(1);
    expect(seen.filter((text) => text === 'send mail')).toHaveLength(1);
  });

  it('embeds request-resolved tools once per content, not per step', async () => {
    const { embed, calls } = createEmbedder();
    const engine = engineFor({ embed });
    const resolved = () => ({
      mcp_rain_radar: { description: 'Radar map of drizzle and rain near you' },
    });
    for (let step = 0; step < 3; step++) {
      const session = engine.createSession({ threadId: 'r', resolvedTools: resolved() });
      expect(names(await search(session, 'wet weather'))).toContain('mcp_rain_radar');
    }
    const radarText = toEmbeddingText({
      id: 'mcp_rain_radar',
      description: 'Radar map of drizzle and rain near you',
    });
    expect(calls.flat().filter((text) => text === radarText)).toHaveLength(1);
  });

  it('ranks a request-resolved tool instead of the static tool it shadows', async () => {
    const { embed } = createEmbedder();
    const session = engineFor({ embed }).createSession({
      resolvedTools: { send_email: { description: 'Send an email through the caller’s inbox' } },
    });
    const output = await search(session, 'letter');
    expect(names(output).filter((name) => name === 'send_email')).toHaveLength(1);
    expect(output.results.find((result) => result.name === 'send_email')!.description).toMatch(
      /caller’s inbox/,
    );
  });

  it('tells the embedder which texts are queries and which are tool texts', async () => {
    const { embed } = createEmbedder();
    await search(engineFor({ embed }).createSession(), 'umbrella');
    const purposes = embed.mock.calls.map(([texts, options]) => [
      texts.includes('umbrella') ? 'query' : 'tools',
      options?.purpose,
    ]);
    expect(purposes.sort()).toEqual([
      ['query', 'query'],
      ['tools', 'document'],
    ]);
  });

  it('sends tool texts in batches of batchSize', async () => {
    const { embed, calls } = createEmbedder();
    await search(engineFor({ embed, fusion: { batchSize: 4 } }).createSession(), 'umbrella');
    const toolCalls = calls.filter((texts) => !texts.includes('umbrella'));
    expect(toolCalls.map((texts) => texts.length)).toEqual([4, 2]);
  });

  it('embeds the catalog ahead of the first search with warmEmbeddings', async () => {
    const { embed, calls } = createEmbedder();
    const engine = engineFor({ embed });
    await engine.warmEmbeddings();
    expect(calls.flat().sort()).toEqual(toolTexts(catalog).sort());
    expect(engine.vectorCache?.size).toBe(Object.keys(catalog).length);
    calls.length = 0;
    await search(engine.createSession(), 'umbrella');
    expect(calls).toEqual([['umbrella']]);
  });

  it('reuses vectors restored from another engine’s cache of the same model', async () => {
    const first = createEmbedder();
    const warmed = engineFor({ embed: first.embed, fusion: { model: 'concepts-v1' } });
    await warmed.warmEmbeddings();
    const bytes = warmed.vectorCache!.serialize();

    const second = createEmbedder();
    const restored = engineFor({ embed: second.embed, fusion: { model: 'concepts-v1' } });
    expect(restored.vectorCache!.restore(bytes)).toBe(Object.keys(catalog).length);
    const output = await search(restored.createSession(), 'will I need an umbrella?');
    expect(names(output)[0]).toBe('precipitation_forecast');
    expect(second.calls).toEqual([['will I need an umbrella?']]);

    const otherModel = engineFor({ embed: second.embed, fusion: { model: 'concepts-v2' } });
    expect(otherModel.vectorCache!.restore(bytes)).toBe(0);
  });

  it('rejects warmEmbeddings when the embedder fails, and reports it', async () => {
    const onError = vi.fn();
    const engine = engineFor({
      embed: () => Promise.reject(new Error('quota exceeded')),
      onError,
    });
    await expect(engine.warmEmbeddings()).rejects.toBeInstanceOf(EmbeddingError);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ threadId: undefined, operation: 'embed.tools' }),
    );
  });

  it('has no vector cache and nothing to warm without embed', async () => {
    const engine = engineFor();
    expect(engine.vectorCache).toBeUndefined();
    await expect(engine.warmEmbeddings()).resolves.toBeUndefined();
  });

  it('keeps filters, pins and autoLoad working on fused results', async () => {
    const { embed } = createEmbedder();
    const asked: string[] = [];
    const engine = createToolSearchEngine<FakeTool>({
      tools: { ...catalog, rain_gauge: { description: 'Rain gauge readings', deny: true } },
      describe: (tool, key) => ({ id: key, description: tool.description }),
      embed,
      search: { autoLoad: true, topK: 2 },
      alwaysLoaded: ['send_email'],
      filter: ({ toolName, tool, phase }) => {
        asked.push(`${phase}:${toolName}`);
        return !tool.deny;
      },
    });
    const session = engine.createSession({ threadId: 'auto' });
    const output = await search(session, 'will I need an umbrella?');
    expect(names(output)).not.toContain('rain_gauge');
    expect(names(output)[0]).toBe('precipitation_forecast');
    expect(asked).toContain('search:rain_gauge');
    expect(output.activation?.loaded).toEqual(names(output));
    const active = (await session.activeTools()).map((tool) => tool.id);
    expect(active).toEqual([
      'send_email',
      ...names(output).filter((name) => name !== 'send_email'),
    ]);
  });

  it('cuts the BM25F ranking at minScore and the embeddings’ at minSimilarity', async () => {
    const { embed } = createEmbedder();
    const loose = await search(engineFor({ embed }).createSession(), 'umbrella');
    expect(names(loose)).toHaveLength(5);
    const strict = await search(
      engineFor({ embed, fusion: { minSimilarity: 0.5 } }).createSession(),
      'umbrella',
    );
    expect(names(strict)).toEqual(['precipitation_forecast']);
    // A word match at or below minScore no longer counts as one; meaning can still find the tool.
    const cut = await search(
      engineFor({
        embed,
        search: { minScore: 1_000 },
        fusion: { minSimilarity: 0.5 },
      }).createSession(),
      'github issue',
    );
    expect(names(cut)).toEqual(['github_create_issue']);
    expect(cut.results[0]!.score).toBeCloseTo(0.5, 2);
  });

  it('answers "No tools found" when no tool is similar enough and no word matches', async () => {
    const { embed } = createEmbedder();
    const output = await search(
      engineFor({ embed, fusion: { minSimilarity: 0.5 } }).createSession(),
      'zebra',
    );
    expect(output.results).toEqual([]);
    expect(output.message).toMatch(/No tools found/);
  });

  it('reports searches as before', async () => {
    const { embed } = createEmbedder();
    const onSearch = vi.fn();
    await search(engineFor({ embed, onSearch }).createSession(), 'umbrella on jupiter');
    expect(onSearch).toHaveBeenCalledWith(
      expect.objectContaining({
        query: 'umbrella on jupiter',
        unmatchedTerms: ['umbrella', 'jupiter'],
        // No word matches: first by meaning alone is half of first in both.
        results: expect.arrayContaining([{ name: 'precipitation_forecast', score: 0.5 }]),
      }),
    );
  });
});

describe('search_tools when the embedder fails', () => {
  const query = 'send an email';
  const bm25Only = async () => search(engineFor().createSession(), query);

  const failures: [string, EmbedFunction, EmbeddingError['reason']][] = [
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      'error',
    ],
    ['rejects', () => Promise.reject(new Error('503')), 'error'],
    ['returns too few vectors', async (texts) => texts.slice(1).map(conceptVector), 'shape'],
    [
      'returns vectors of different dimensions',
      async (texts) => texts.map((text, position) => conceptVector(text).slice(position % 2)),
      'shape',
    ],
    [
      'returns NaN',
      async (texts) => texts.map((text) => conceptVector(text).map(() => Number.NaN)),
      'shape',
    ],
    ['returns no list', async () => ({ data: [] }) as unknown as number[][], 'shape'],
    ['returns empty vectors', async (texts) => texts.map(() => []), 'shape'],
  ];

  it.each(failures)(
    'answers with BM25F alone when it %s, and says why',
    async (_, embed, reason) => {
      const onError = vi.fn();
      const output = await search(
        engineFor({ embed, onError }).createSession({ threadId: 't' }),
        query,
      );
      expect(output).toEqual(await bm25Only());
      const errors = onError.mock.calls.map(([event]) => event);
      expect(errors.length).toBeGreaterThan(0);
      for (const event of errors) {
        expect(event).toMatchObject({
          threadId: 't',
          operation: expect.stringMatching(/^embed\./),
        });
        expect(event.error).toBeInstanceOf(EmbeddingError);
        expect(event.error.reason).toBe(reason);
      }
    },
  );

  it('aborts and reports an embedder that hangs past the timeout', async () => {
    const onError = vi.fn();
    const signals: AbortSignal[] = [];
    const embed: EmbedFunction = (_, options) => {
      if (options?.signal) signals.push(options.signal);
      return new Promise(() => {});
    };
    const output = await search(
      engineFor({ embed, onError, fusion: { timeout: 30 } }).createSession(),
      query,
    );
    expect(output).toEqual(await bm25Only());
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ error: expect.objectContaining({ reason: 'timeout' }) }),
    );
    // The query's call and the tool texts' call, each aborted at its own deadline.
    expect(signals).toHaveLength(2);
    await vi.waitFor(() => expect(signals.every((signal) => signal.aborted)).toBe(true));
  });

  it('falls back when the query’s vector has another dimension than the tools’', async () => {
    const onError = vi.fn();
    const embed: EmbedFunction = async (texts) =>
      texts.length === 1 && texts[0] === query ? [[1, 0]] : texts.map(conceptVector);
    const output = await search(engineFor({ embed, onError }).createSession(), query);
    expect(output).toEqual(await bm25Only());
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({
        operation: 'embed.query',
        error: expect.objectContaining({ reason: 'shape' }),
      }),
    );
  });

  it('tries again on a later search, without hammering a failing embedder', async () => {
    let healthy = false;
    const { embed, calls } = createEmbedder({
      failWith: async () => {
        if (!healthy) throw new Error('down');
        return [];
      },
    });
    const working: EmbedFunction = async (texts, options) => {
      await embed(texts, options);
      return texts.map(conceptVector);
    };
    const engine = engineFor({ embed: working, fusion: { batchSize: 2 } });
    await search(engine.createSession(), 'umbrella');
    // One query call and three tool batches, all failed.
    expect(calls).toHaveLength(4);
    calls.length = 0;
    await search(engine.createSession(), 'umbrella');
    // The query again, and one batch to probe: not the whole catalog again.
    expect(calls.map((texts) => texts.length).sort()).toEqual([1, 2]);
    calls.length = 0;
    healthy = true;
    const output = await search(engine.createSession(), 'umbrella');
    expect(names(output)[0]).toBe('precipitation_forecast');
    expect(calls.map((texts) => texts.length).sort()).toEqual([1, 2, 2, 2]);
  });
});

describe('ToolSearchEngine options for fusion', () => {
  it.each([
    [{ embed: 'openai' }, /embed/],
    [{ fusion: { k: -1 } }, /fusion.k/],
    [{ fusion: { textWeight: Number.NaN } }, /textWeight/],
    [{ fusion: { textWeight: 0, vectorWeight: 0 } }, /both be 0/],
    [{ fusion: { timeout: 0 } }, /timeout/],
    [{ fusion: { timeout: Number.POSITIVE_INFINITY } }, /timeout/],
    [{ fusion: { batchSize: 1.5 } }, /batchSize/],
    [{ fusion: { minSimilarity: Number.NaN } }, /minSimilarity/],
    [{ fusion: { kernel: 'gpu' } }, /fusion.kernel/],
  ])('rejects %j', (options, message) => {
    expect(() => engineFor(options as Options)).toThrow(message);
  });
});
