/**
 * Rankers for the quality benchmark that fuse BM25F with embeddings from an OpenAI-compatible
 * endpoint, configured by environment variables (no model can be installed where the benchmark
 * usually runs, so these rows appear only when an endpoint is given):
 * `TOOL_SEARCH_EMBEDDINGS_URL` (e.g. `https://api.openai.com/v1`), `TOOL_SEARCH_EMBEDDINGS_MODEL`
 * (e.g. `text-embedding-3-small`), optionally `TOOL_SEARCH_EMBEDDINGS_API_KEY`.
 */
import {
  createOpenAICompatibleEmbed,
  createToolSearchEngine,
  type EmbedFunction,
  type FusionSettings,
  type SearchToolsOutput,
  type ToolDescriptor,
} from 'tool-search-core';
import type { DataTool } from './data';
import { type Ranker, TOP_K } from './rankers';

/** The endpoint the environment configures, or why there is none. */
export type EmbeddingsEndpoint =
  | { ok: true; url: string; model: string; apiKey: string | undefined }
  | { ok: false; reason: string };

/** Reads `TOOL_SEARCH_EMBEDDINGS_URL`, `_MODEL` and `_API_KEY`. */
export function embeddingsEndpointFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): EmbeddingsEndpoint {
  const url = env.TOOL_SEARCH_EMBEDDINGS_URL?.trim();
  const model = env.TOOL_SEARCH_EMBEDDINGS_MODEL?.trim();
  if (!url || !model) {
    return {
      ok: false,
      reason:
        'no embeddings endpoint configured: set TOOL_SEARCH_EMBEDDINGS_URL and TOOL_SEARCH_EMBEDDINGS_MODEL (and TOOL_SEARCH_EMBEDDINGS_API_KEY if the endpoint needs one) to add the fusion rows',
    };
  }
  return { ok: true, url, model, apiKey: env.TOOL_SEARCH_EMBEDDINGS_API_KEY?.trim() || undefined };
}

/** Calls to a real endpoint can be slow; the benchmark measures quality, not patience. */
const BENCH_EMBED_TIMEOUT = 60_000;

/**
 * Remembers every vector the endpoint returned, by text: the quality benchmark builds each ranker
 * twice (the second build is timed), and the catalog need not be embedded twice.
 */
function memoized(embed: EmbedFunction): EmbedFunction {
  const known = new Map<string, ArrayLike<number>>();
  return async (texts, options) => {
    const missing = [...new Set(texts.filter((text) => !known.has(text)))];
    if (missing.length > 0) {
      const vectors = await embed(missing, options);
      for (const [position, text] of missing.entries()) known.set(text, vectors[position]!);
    }
    return texts.map((text) => known.get(text)!);
  };
}

function describeTool(tool: DataTool): ToolDescriptor {
  return tool.inputSchema === undefined
    ? { id: tool.id, description: tool.description }
    : { id: tool.id, description: tool.description, inputSchema: tool.inputSchema };
}

/**
 * The engine's `search_tools` with `embed` from the endpoint. Build time counts creating the
 * engine and `warmEmbeddings()` on the second build, whose vectors come from memory: the
 * endpoint's own time is not in it. Search time includes embedding the query (a network call).
 */
export function fusionRanker(
  endpoint: Extract<EmbeddingsEndpoint, { ok: true }>,
  fusion: FusionSettings,
  label: string,
): Ranker {
  const embed = memoized(
    createOpenAICompatibleEmbed({
      url: endpoint.url,
      model: endpoint.model,
      apiKey: endpoint.apiKey,
    }),
  );
  return {
    key: `fusion-${label}`,
    label,
    prepare(tools) {
      const catalog = Object.fromEntries(tools.map((tool) => [tool.id, tool]));
      return {
        async build() {
          const engine = createToolSearchEngine<DataTool>({
            tools: catalog,
            describe: describeTool,
            embed,
            fusion: { timeout: BENCH_EMBED_TIMEOUT, model: endpoint.model, ...fusion },
          });
          await engine.warmEmbeddings();
          const searchTools = engine.createSession().metaTools[0]!;
          return {
            async search(query) {
              const output = (await searchTools.execute({
                query,
                limit: TOP_K,
              })) as SearchToolsOutput;
              return output.results.map((result) => result.name);
            },
          };
        },
      };
    },
  };
}

/** The fusion rows: BM25F fused with the embeddings (defaults), and the embeddings alone. */
export function fusionRankers(endpoint: Extract<EmbeddingsEndpoint, { ok: true }>): Ranker[] {
  return [
    fusionRanker(endpoint, {}, `BM25F + ${endpoint.model} (RRF, k 60, weights 1 / 1)`),
    fusionRanker(endpoint, { textWeight: 0 }, `${endpoint.model} alone (cosine)`),
  ];
}
