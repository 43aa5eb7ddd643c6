import { describe, expect, it } from 'vitest';
import { contentHash } from '../embedding/content-hash';
import type { EmbedFunction } from '../embedding/embed-function';
import { toEmbeddingText } from '../embedding/embedding-text';
import { dot } from '../embedding/exact-dot';
import type { SimilarityKernelPreference } from '../embedding/similarity-kernel';
import { toUnitVector } from '../embedding/vector-cache';
import { createToolSearchEngine } from '../engine/tool-search-engine';
import { DEFAULT_RRF_K, fuseRankings } from '../search/reciprocal-rank-fusion';
import type { SearchToolsOutput } from './meta-tool-schemas';

interface Tool {
  description: string;
}

const WORDS = [
  'weather',
  'forecast',
  'rain',
  'email',
  'send',
  'issue',
  'github',
  'calendar',
  'event',
  'invoice',
  'payment',
  'file',
  'upload',
  'search',
  'user',
  'message',
];

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 600 tools of a few random words each; every tenth repeats another's description (ties). */
function makeCatalog(): Record<string, Tool> {
  const next = random(5);
  const tools: Record<string, Tool> = {};
  const descriptions: string[] = [];
  for (let i = 0; i < 600; i++) {
    const description =
      i % 10 === 9
        ? descriptions[Math.floor(next() * descriptions.length)]!
        : Array.from({ length: 3 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
    descriptions.push(description);
    tools[`tool_${i}`] = { description };
  }
  return tools;
}

/** A deterministic embedder: random vectors seeded by the text, so equal texts tie exactly. */
const embed: EmbedFunction = async (texts) =>
  texts.map((text) => {
    const next = random(Number.parseInt(contentHash(text).slice(0, 8), 16));
    return Array.from({ length: 100 }, () => next() - 0.5);
  });

const tools = makeCatalog();
const describe_ = (tool: Tool, key: string) => ({ id: key, description: tool.description });
/** Denies a third of the tools, so searches look past their first window. */
const denied = (name: string) => Number(name.slice(5)) % 3 === 0;

function engineWith(kernel: SimilarityKernelPreference) {
  return createToolSearchEngine<Tool>({
    tools,
    describe: describe_,
    embed,
    fusion: { kernel },
    filter: ({ toolName }) => !denied(toolName),
  });
}

/**
 * The straightforward computation: BM25F's top and every tool's cosine ranked in full, fused by
 * reciprocal rank, then read in `search_tools`' growing windows past denied tools.
 */
async function referenceSearch(
  engine: ReturnType<typeof engineWith>,
  query: string,
  topK: number,
): Promise<{ name: string; score: number }[]> {
  const [raw] = await embed([query]);
  const queryVector = toUnitVector(raw!)!;
  const similarities = Object.entries(tools).map(([id, tool]) => {
    const text = toEmbeddingText({ id, description: tool.description });
    const vector = engine.vectorCache!.get(contentHash(text))!;
    return { id, score: dot(queryVector, vector, vector.length) };
  });
  similarities.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const ranked = (window: number) => {
    const depth = Math.max(window, 100);
    const text = engine.index.search(query, { topK: depth, minScore: 0 }).map((hit) => hit.id);
    const meaning = similarities.slice(0, depth).map((hit) => hit.id);
    return fuseRankings(
      [
        { ids: text, weight: 1 },
        { ids: meaning, weight: 1 },
      ],
      DEFAULT_RRF_K,
    )
      .slice(0, window)
      .map(({ id, score }) => ({ id, score: (score * (DEFAULT_RRF_K + 1)) / 2 }));
  };
  const results: { name: string; score: number }[] = [];
  const checked = new Set<string>();
  for (let window = topK * 2; ; window *= 4) {
    const hits = ranked(window).filter((hit) => !checked.has(hit.id));
    for (const hit of hits) {
      checked.add(hit.id);
      if (denied(hit.id)) continue;
      results.push({ name: hit.id, score: Math.round(hit.score * 100) / 100 });
      if (results.length === topK) return results;
    }
    if (window >= 600) return results;
  }
}

const QUERIES = ['weather forecast', 'github issue', 'zzz nothing matches', 'user message event'];

describe('search_tools with embed, at scale', () => {
  const engines = [engineWith('auto'), engineWith('js')];
  const warmed = Promise.all(engines.map((engine) => engine.warmEmbeddings()));

  it('runs the WebAssembly kernel by default, and JavaScript when asked', async () => {
    await warmed;
    const kernels = engines.map(
      (engine) => engine.embeddings!.matrixOf(engine.index, engine.catalog)!.kernel,
    );
    expect(kernels).toEqual(['wasm', 'js']);
  });

  it.each(QUERIES)(
    'returns what the straightforward fused computation returns, with either kernel: %s',
    async (query) => {
      await warmed;
      for (const limit of [1, 5, 40]) {
        const expected = await referenceSearch(engines[0]!, query, limit);
        expect(expected.length).toBeGreaterThan(0);
        for (const engine of engines) {
          const searchTools = engine.createSession().metaTools[0]!;
          const output = (await searchTools.execute({ query, limit })) as SearchToolsOutput;
          expect(output.results.map(({ name, score }) => ({ name, score }))).toEqual(expected);
        }
      }
    },
  );
});
