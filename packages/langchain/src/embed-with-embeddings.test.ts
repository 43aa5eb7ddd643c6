import { Embeddings } from '@langchain/core/embeddings';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { FakeEmbeddings } from '@langchain/core/utils/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { embedWithEmbeddings } from './embed-with-embeddings';
import { type CallLog, createCatalog, type Step, scriptedModel } from './testing/fixtures';
import { toolSearchMiddleware } from './tool-search-middleware';
import { createToolSearchSelector } from './tool-search-selector';

/** A LangChain `Embeddings` that knows a few synonyms, and records what it embeds. */
class ConceptEmbeddings extends Embeddings {
  readonly model = 'concepts-v1';
  readonly documents: string[] = [];
  readonly queries: string[] = [];
  readonly #concepts = [
    ['umbrella', 'rain', 'weather', 'forecast'],
    ['mail', 'email', 'message', 'letter', 'recipient'],
    ['bug', 'issue', 'github', 'ticket'],
  ];

  constructor(readonly fail = false) {
    super({});
  }

  #vector(text: string): number[] {
    const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
    return [
      ...this.#concepts.map((concept) => words.filter((word) => concept.includes(word)).length),
      0.05,
    ];
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    if (this.fail) throw new Error('embeddings service down');
    this.documents.push(...documents);
    return documents.map((text) => this.#vector(text));
  }

  async embedQuery(document: string): Promise<number[]> {
    if (this.fail) throw new Error('embeddings service down');
    this.queries.push(document);
    return this.#vector(document);
  }
}

const UMBRELLA: Step[] = [
  { calls: [{ name: 'search_tools', args: { query: 'will I need an umbrella?' } }] },
  { answer: 'Take one.' },
];

async function searchResults(steps: Step[], options: Parameters<typeof toolSearchMiddleware>[0]) {
  const agent = createAgent({
    model: scriptedModel(steps),
    tools: [],
    middleware: [toolSearchMiddleware({ toolSearch: true, ...options })],
  });
  const result = await agent.invoke(
    { messages: [new HumanMessage('Going out')] },
    { configurable: { thread_id: 'embed' } },
  );
  return result.messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .map((message) => JSON.parse(message.text).results.map((hit: { name: string }) => hit.name));
}

describe('toolSearchMiddleware with embeddings', () => {
  it('finds a paraphrase through a real createAgent, only with embeddings', async () => {
    const log: CallLog = [];
    const [without] = await searchResults(UMBRELLA, { tools: createCatalog(log) });
    expect(without).toEqual([]);
    const embeddings = new ConceptEmbeddings();
    const [fused] = await searchResults(UMBRELLA, { tools: createCatalog(log), embeddings });
    expect(fused![0]).toBe('get_weather');
    expect(embeddings.queries).toEqual(['will I need an umbrella?']);
  });

  it('embeds each tool text once across agent runs, and each new query once', async () => {
    const embeddings = new ConceptEmbeddings();
    const middleware = toolSearchMiddleware({
      toolSearch: true,
      expose: 'tools',
      tools: createCatalog([]),
      embeddings,
    });
    for (const query of ['send a letter', 'file a bug', 'send a letter']) {
      const agent = createAgent({
        model: scriptedModel([
          { calls: [{ name: 'search_tools', args: { query } }] },
          { answer: 'ok' },
        ]),
        tools: [],
        middleware: [middleware],
      });
      await agent.invoke({ messages: [new HumanMessage(query)] });
    }
    expect(new Set(embeddings.documents).size).toBe(embeddings.documents.length);
    expect(embeddings.documents).toHaveLength(createCatalog([]).length);
    expect(embeddings.queries).toEqual(['send a letter', 'file a bug']);
  });

  it('answers with BM25F alone when the embeddings fail, and reports it', async () => {
    const errors: string[] = [];
    const [results] = await searchResults(
      [
        { calls: [{ name: 'search_tools', args: { query: 'weather forecast' } }] },
        { answer: 'ok' },
      ],
      {
        tools: createCatalog([]),
        embeddings: new ConceptEmbeddings(true),
        onError: (event) => errors.push(event.operation),
      },
    );
    expect(results![0]).toBe('get_weather');
    expect(errors).toContain('embed.query');
  });

  it('runs with langchain’s FakeEmbeddings', async () => {
    const search = createToolSearchSelector({
      toolSearch: true,
      expose: 'tools',
      tools: createCatalog([]),
      embeddings: new FakeEmbeddings(),
    });
    await search.engine.warmEmbeddings();
    expect(search.engine.vectorCache?.size).toBe(createCatalog([]).length);
  });

  it('refuses embeddings and embed together, and names the vectors after the model', () => {
    expect(() =>
      createToolSearchSelector({
        toolSearch: true,
        expose: 'tools',
        tools: createCatalog([]),
        embeddings: new ConceptEmbeddings(),
        embed: async (texts) => texts.map(() => [1]),
      }),
    ).toThrow(/not both/);
    const search = createToolSearchSelector({
      toolSearch: true,
      expose: 'tools',
      tools: createCatalog([]),
      embeddings: new ConceptEmbeddings(),
    });
    expect(search.engine.vectorCache?.model).toBe('ConceptEmbeddings:concepts-v1');
  });
});

describe('embedWithEmbeddings', () => {
  it('embeds queries with embedQuery and tool texts with embedDocuments', async () => {
    const embeddings = new ConceptEmbeddings();
    const embed = embedWithEmbeddings(embeddings);
    await embed(['rain'], { purpose: 'query' });
    await embed(['mail', 'bug'], { purpose: 'document' });
    expect(embeddings.queries).toEqual(['rain']);
    expect(embeddings.documents).toEqual(['mail', 'bug']);
  });
});
