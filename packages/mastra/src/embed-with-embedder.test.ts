import { MockEmbeddingModelV3, MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { embedWithEmbedder } from './embed-with-embedder';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { lastResult, runAgent, searchLoadCall } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';

const CONCEPTS = [
  ['umbrella', 'rain', 'weather', 'forecast'],
  ['mail', 'email', 'message', 'letter', 'recipient'],
  ['bug', 'issue', 'github', 'ticket'],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [
    ...CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length),
    0.05,
  ];
}

/** An AI SDK mock embedding model that knows a few synonyms. */
function conceptModel(options: { fail?: boolean } = {}) {
  return new MockEmbeddingModelV3({
    maxEmbeddingsPerCall: 3,
    doEmbed: async ({ values }) => {
      if (options.fail) throw new Error('embedding quota exceeded');
      return { embeddings: values.map(conceptVector), warnings: [] };
    },
  });
}

const newLog = (): ExecutionLog => ({ runs: [] });

describe('ToolSearchProcessor with an embedder', () => {
  it('finds a paraphrase through a real agent, only with the embedder', async () => {
    const query = 'will I need an umbrella?';
    const firstResult = async (processor: ToolSearchProcessor) => {
      const run = await runAgent({
        processor,
        script: (turn) =>
          turn.call === 0 ? { toolName: 'search_tools', input: { query } } : { text: 'ok' },
        input: 'Going out',
      });
      return (lastResult(run.turns.at(-1)!)!.output as { results: { name: string }[] }).results;
    };
    expect(await firstResult(new ToolSearchProcessor({ tools: createCatalog(newLog()) }))).toEqual(
      [],
    );
    const model = conceptModel();
    const log = newLog();
    const processor = new ToolSearchProcessor({ tools: createCatalog(log), embedder: model });
    expect((await firstResult(processor))[0]!.name).toBe('get_weather');

    // The whole loop: search by meaning, load, call.
    await runAgent({
      processor,
      script: searchLoadCall(query, { city: 'Oslo' }),
      input: 'Going out in Oslo',
    });
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Oslo' } }]);
    // Calls of at most the model's maxEmbeddingsPerCall, each tool text and the query once.
    const values = model.doEmbedCalls.map((call) => call.values);
    expect(Math.max(...values.map((batch) => batch.length))).toBeLessThanOrEqual(3);
    const flat = values.flat();
    expect(new Set(flat).size).toBe(flat.length);
    expect(flat).toHaveLength(Object.keys(createCatalog(newLog())).length + 1);
  });

  it('answers with BM25F alone when the embedder fails, and reports it', async () => {
    const errors: string[] = [];
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      embedder: conceptModel({ fail: true }),
      onError: (event) => errors.push(event.operation),
    });
    const run = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'search_tools', input: { query: 'weather forecast' } }
          : { text: 'ok' },
      input: 'Weather?',
    });
    const output = lastResult(run.turns.at(-1)!)!.output as { results: { name: string }[] };
    expect(output.results[0]!.name).toBe('get_weather');
    expect(errors).toContain('embed.query');
  });

  it('reports a router id it cannot resolve, and still searches', async () => {
    const errors: unknown[] = [];
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      embedder: 'nonexistent-provider/some-embedding-model',
      fusion: { timeout: 2_000 },
      onError: (event) => errors.push(event.error),
    });
    const run = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'search_tools', input: { query: 'send an email' } }
          : { text: 'ok' },
      input: 'Mail',
    });
    const output = lastResult(run.turns.at(-1)!)!.output as { results: { name: string }[] };
    expect(output.results[0]!.name).toBe('send_email');
    expect(errors.length).toBeGreaterThan(0);
  });

  it('names the vectors after the model, and refuses embedder and embed together', () => {
    const processor = new ToolSearchProcessor({
      tools: createCatalog(newLog()),
      embedder: conceptModel(),
    });
    expect(processor).toBeInstanceOf(ToolSearchProcessor);
    expect(
      () =>
        new ToolSearchProcessor({
          tools: {},
          embedder: conceptModel(),
          embed: async (texts) => texts.map(() => [1]),
        }),
    ).toThrow(/not both/);
  });
});

describe('embedWithEmbedder', () => {
  it('calls a v4 model too, passing headers, provider options and the abort signal', async () => {
    const model = new MockEmbeddingModelV4({
      maxEmbeddingsPerCall: 2,
      doEmbed: async ({ values }) => ({ embeddings: values.map(conceptVector), warnings: [] }),
    });
    const embed = embedWithEmbedder(model, {
      headers: { 'x-team': 'search' },
      providerOptions: { openai: { dimensions: 4 } },
    });
    const signal = new AbortController().signal;
    const vectors = await embed(['rain', 'mail', 'bug'], { signal });
    expect(vectors.map((vector) => Array.from(vector))).toEqual(
      ['rain', 'mail', 'bug'].map(conceptVector),
    );
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([['rain', 'mail'], ['bug']]);
    expect(model.doEmbedCalls[0]).toMatchObject({
      headers: { 'x-team': 'search' },
      providerOptions: { openai: { dimensions: 4 } },
      abortSignal: signal,
    });
  });
});
