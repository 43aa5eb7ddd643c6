import * as ai7 from 'ai';
import * as ai7Test from 'ai/test';
import * as ai5 from 'ai-v5';
import * as ai5Test from 'ai-v5/test';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { createToolSearch } from './create-tool-search';
import { type EmbedMany, embedWithModel } from './embed-with-model';
import { AI_MAJORS } from './test-utils/ai-majors';
import { setup, toolResultsOf } from './test-utils/setup';

/** Words that mean the same to this test's embedding model. */
const CONCEPTS = [
  ['umbrella', 'rain', 'weather', 'forecast'],
  ['money', 'currency', 'currencies', 'cash'],
  ['mail', 'email', 'recipient', 'letter'],
  ['language', 'translate', 'french'],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [
    ...CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length),
    0.05,
  ];
}

type MockEmbeddingModel = new (options: {
  maxEmbeddingsPerCall?: number;
  doEmbed: (options: { values: string[]; abortSignal?: AbortSignal }) => Promise<unknown>;
}) => { doEmbedCalls: { values: string[]; abortSignal?: AbortSignal }[] };

/** Each major's own embedding mock and `embedMany`. */
const EMBEDDINGS: Record<string, { MockModel: MockEmbeddingModel; embedMany: EmbedMany }> = {
  'ai 5': {
    MockModel: ai5Test.MockEmbeddingModelV2 as unknown as MockEmbeddingModel,
    embedMany: ai5.embedMany as unknown as EmbedMany,
  },
  'ai 6': {
    MockModel: ai6Test.MockEmbeddingModelV3 as unknown as MockEmbeddingModel,
    embedMany: ai6.embedMany as unknown as EmbedMany,
  },
  'ai 7': {
    MockModel: ai7Test.MockEmbeddingModelV4 as unknown as MockEmbeddingModel,
    embedMany: ai7.embedMany as unknown as EmbedMany,
  },
};

function conceptModel(MockModel: MockEmbeddingModel, options: { fail?: boolean } = {}) {
  return new MockModel({
    maxEmbeddingsPerCall: 16,
    doEmbed: async ({ values }) => {
      if (options.fail) throw new Error('embedding quota exceeded');
      return { embeddings: values.map(conceptVector), warnings: [] };
    },
  });
}

const umbrellaSearch = [
  { toolCalls: [{ toolName: 'search_tools', input: { query: 'will I need an umbrella?' } }] },
  { toolCalls: [{ toolName: 'search_tools', input: { query: 'pay with cash abroad' } }] },
  { text: 'done' },
];

describe.each(AI_MAJORS)('createToolSearch with embeddingModel on $name', (major) => {
  const { MockModel, embedMany } = EMBEDDINGS[major.name]!;

  it('finds a paraphrase in a real loop, embedding each tool text and query once', async () => {
    const model = conceptModel(MockModel);
    const { toolSearch } = setup(major, { embeddingModel: model as never });
    const loop = async () =>
      major.generateText({
        model: major.scriptedModel(umbrellaSearch).model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        stopWhen: major.stepCountIs(5),
        prompt: 'Trip to London',
      });
    const [umbrella, money] = toolResultsOf(await loop()).map(
      (result) => (result.output as { results: { name: string }[] }).results,
    );
    expect(umbrella![0]!.name).toBe('get_weather');
    expect(money![0]!.name).toBe('convert_currency');
    // A second conversation: the tool vectors and both queries are reused.
    await loop();
    const values = model.doEmbedCalls.flatMap((call) => call.values);
    expect(new Set(values).size).toBe(values.length);
    expect(values).toHaveLength(toolSearch.engine.catalog.size + 2);
  });

  it('finds nothing for the paraphrase without it', async () => {
    const { toolSearch } = setup(major);
    const result = await major.generateText({
      model: major.scriptedModel(umbrellaSearch).model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'Trip to London',
    });
    const [umbrella] = toolResultsOf(result);
    expect((umbrella!.output as { results: unknown[] }).results).toEqual([]);
  });

  it('answers with BM25F alone when the model fails, and reports it', async () => {
    const errors: { operation: string }[] = [];
    const { toolSearch } = setup(major, {
      embeddingModel: conceptModel(MockModel, { fail: true }) as never,
      onError: (event) => errors.push(event),
    });
    const result = await major.generateText({
      model: major.scriptedModel([
        { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast' } }] },
        { text: 'done' },
      ]).model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(3),
      prompt: 'Weather?',
    });
    const [search] = toolResultsOf(result);
    expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe(
      'get_weather',
    );
    expect(errors.map((event) => event.operation)).toContain('embed.query');
  });

  it('embeds through the major’s own embedMany, passing the abort signal', async () => {
    const model = conceptModel(MockModel);
    const embed = embedWithModel(model as never, embedMany);
    const controller = new AbortController();
    const vectors = await embed(['umbrella', 'cash', 'letter'], { signal: controller.signal });
    expect(vectors.map((vector) => Array.from(vector))).toEqual(
      ['umbrella', 'cash', 'letter'].map(conceptVector),
    );
    expect(model.doEmbedCalls[0]!.abortSignal).toBeDefined();
  });
});

describe('createToolSearch', () => {
  it('refuses embeddingModel and embed together', () => {
    const model = conceptModel(EMBEDDINGS['ai 7']!.MockModel);
    expect(() =>
      createToolSearch({
        toolSearch: true,
        tools: {},
        embeddingModel: model as never,
        embed: async (texts) => texts.map(() => [1]),
      }),
    ).toThrow(/not both/);
  });

  it('names the vectors after the model, so another model’s are never restored', () => {
    const { toolSearch } = setup(AI_MAJORS[2]!, {
      embeddingModel: conceptModel(EMBEDDINGS['ai 7']!.MockModel) as never,
    });
    expect(toolSearch.engine.vectorCache?.model).toBe('mock-provider:mock-model-id');
  });
});
