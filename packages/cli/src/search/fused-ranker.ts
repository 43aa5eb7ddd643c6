import {
  createToolSearchEngine,
  type EmbedFunction,
  MAX_QUERY_LENGTH,
  type SearchHit,
  type SearchToolsOutput,
  type ToolIndexOptions,
  toToolRecord,
} from 'tool-search-core';
import { CliError } from '../cli/cli-error';
import { CLI_EMBED_TIMEOUT, type EmbeddingsSetup } from '../cli/embeddings-flags';
import { type CatalogTool, toDescriptor } from '../source/catalog';

/** Options of {@link createFusedRanker}. */
export interface FusedRankerOptions {
  tools: readonly CatalogTool[];
  /** Ranking options for BM25F's side. */
  index?: ToolIndexOptions;
  /** BM25F hits at or below this do not count as word matches. @default 0 */
  minScore?: number;
  /** Hits per query. */
  depth: number;
  embeddings: EmbeddingsSetup;
}

/** One query's ranking, and why it is BM25F's alone when the endpoint failed. */
export interface FusedRanking {
  hits: SearchHit[];
  /** The endpoint's failure for this query (the hits are then BM25F's), or `undefined`. */
  failure: string | undefined;
}

/** Ranks queries as the engine's `search_tools` does with `embed`. */
export interface FusedRanker {
  /**
   * Embeds the whole catalog.
   * @throws {CliError} when the endpoint fails, saying why
   */
  warm(): Promise<void>;
  /** Embeds queries in batches ahead of {@link FusedRanker.rank}, instead of one call each. */
  prefetch(queries: readonly string[]): Promise<void>;
  rank(query: string): Promise<FusedRanking>;
}

/** Query texts per prefetch call: what `createOpenAICompatibleEmbed` sends per request anyway. */
const PREFETCH_BATCH = 32;

/**
 * A ranker that fuses BM25F with the endpoint's embeddings through the core engine, so the CLI
 * ranks exactly as `search_tools` does: the same engine, options and fusion.
 * @throws {CliError} when the catalog cannot be given to the engine (a tool named like a meta-tool)
 */
export function createFusedRanker(options: FusedRankerOptions): FusedRanker {
  const queryVectors = new Map<string, ArrayLike<number>>();
  const { embed } = options.embeddings;
  // Queries embedded ahead are answered from memory; everything else goes to the endpoint.
  const cachedEmbed: EmbedFunction = async (texts, callOptions) => {
    if (callOptions?.purpose === 'query' && texts.every((text) => queryVectors.has(text))) {
      return texts.map((text) => queryVectors.get(text)!);
    }
    return embed(texts, callOptions);
  };
  let failures: unknown[] = [];
  const byId = new Map(options.tools.map((tool) => [tool.id, tool]));
  let engine: ReturnType<typeof createToolSearchEngine<CatalogTool>>;
  try {
    engine = createToolSearchEngine<CatalogTool>({
      tools: toToolRecord(options.tools.map((tool) => [tool.id, tool] as const)),
      describe: (tool) => toDescriptor(tool),
      ...(options.index && { index: options.index }),
      search: { topK: options.depth, minScore: options.minScore ?? 0 },
      embed: cachedEmbed,
      fusion: options.embeddings.fusion,
      onError: (event) => failures.push(event.error),
    });
  } catch (error) {
    throw new CliError(
      `cannot rank with embeddings: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const searchTools = engine
    .createSession()
    .metaTools.find((tool) => tool.name === 'search_tools')!;
  return {
    async warm() {
      try {
        await engine.warmEmbeddings();
      } catch (error) {
        throw new CliError(
          `the embeddings endpoint (${options.embeddings.label}) could not embed the catalog: ${errorText(error)}`,
          { cause: error },
        );
      } finally {
        failures = [];
      }
    },
    async prefetch(queries) {
      const texts = [...new Set(queries.map((query) => query.slice(0, MAX_QUERY_LENGTH)))].filter(
        (text) => text.trim() !== '' && !queryVectors.has(text),
      );
      for (let start = 0; start < texts.length; start += PREFETCH_BATCH) {
        const batch = texts.slice(start, start + PREFETCH_BATCH);
        try {
          const vectors = await embed(batch, {
            purpose: 'query',
            signal: AbortSignal.timeout(options.embeddings.fusion.timeout ?? CLI_EMBED_TIMEOUT),
          });
          if (vectors.length !== batch.length) return;
          for (const [position, text] of batch.entries())
            queryVectors.set(text, vectors[position]!);
        } catch {
          // Each query is then embedded on its own, and a failure is reported for it.
          return;
        }
      }
    },
    async rank(query) {
      failures = [];
      const output = (await searchTools.execute({ query })) as SearchToolsOutput;
      const failure = failures.length > 0 ? errorText(failures[0]) : undefined;
      return {
        hits: output.results.map((result) => ({
          id: result.name,
          score: result.score,
          description: byId.get(result.name)?.description ?? result.description,
        })),
        failure,
      };
    },
  };
}

/** Causes nested deeper than this are left out of a message. */
const MAX_CAUSES = 4;

/** An error and its causes as one line: an endpoint's reason is often two causes down. */
export function errorText(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth++) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (message) text += `: ${message}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return text;
}
