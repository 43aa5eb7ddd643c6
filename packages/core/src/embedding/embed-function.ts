import type { SimilarityKernelPreference } from './similarity-kernel';

/**
 * Turns texts into vectors: one vector per text, in the texts' order, all of one dimension. Any
 * model fits: an AI SDK embedding model through `embedMany`, a LangChain `Embeddings`, an
 * OpenAI-compatible endpoint ({@link createOpenAICompatibleEmbed}), a local model.
 */
export type EmbedFunction = (
  texts: string[],
  options?: EmbedCallOptions,
) => Promise<ReadonlyArray<ArrayLike<number>>>;

/** What the engine tells an {@link EmbedFunction} about a call; using it is optional. */
export interface EmbedCallOptions {
  /** Aborts when the engine stops waiting (see `fusion.timeout`). */
  signal?: AbortSignal;
  /**
   * `'query'` for a search's query, `'document'` for tool texts: for models that embed the two
   * differently (LangChain's `embedQuery` / `embedDocuments`, input types, instruction prefixes).
   */
  purpose?: 'query' | 'document';
}

/** How `search_tools` fuses BM25F's ranking with the embeddings' (used when `embed` is given). */
export interface FusionSettings {
  /**
   * Reciprocal-rank fusion's `k`: a tool ranked r-th in a ranking gets `weight / (k + r)` from it.
   * Larger values flatten the difference between the top ranks and the rest.
   * @default 60
   */
  k?: number;
  /**
   * Weight of BM25F's ranking.
   * @default 1
   */
  textWeight?: number;
  /**
   * Weight of the embeddings' ranking (cosine similarity to the query).
   * @default 1
   */
  vectorWeight?: number;
  /**
   * Tools less similar to the query than this (cosine, -1 to 1) are left out of the embeddings'
   * ranking; they can still be found by BM25F. Without it every tool has a place in that ranking,
   * so a search answers even when no word matches.
   */
  minSimilarity?: number;
  /**
   * How long a search waits for the embedder, in ms; an embedding call that takes longer is
   * aborted and that search answers with BM25F alone.
   * @default 5_000
   */
  timeout?: number;
  /**
   * Tool texts sent per `embed` call at most.
   * @default 128
   */
  batchSize?: number;
  /**
   * Names the embedding model, recorded with cached vectors so that vectors saved for another
   * model are never restored (see `engine.vectorCache`).
   */
  model?: string;
  /**
   * What computes similarities: `'auto'` uses a WebAssembly SIMD kernel where the runtime allows
   * it, else JavaScript; `'js'` always uses JavaScript (for runtimes or content security policies
   * that forbid compiling WebAssembly). Rankings are identical; only the speed differs.
   * @default 'auto'
   */
  kernel?: SimilarityKernelPreference;
}

/** Why an embedding call was not used: it threw or rejected, took too long, or returned vectors of the wrong shape. */
export type EmbeddingFailure = 'error' | 'timeout' | 'shape';

/** The error `onError` receives when the embedder failed; the search answered with BM25F alone. */
export class EmbeddingError extends Error {
  /** What went wrong. */
  readonly reason: EmbeddingFailure;

  /**
   * @param reason - thrown or rejected, timed out, or wrong shape
   * @param message - what happened
   * @param cause - the embedder's own error, if any
   */
  constructor(reason: EmbeddingFailure, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EmbeddingError';
    this.reason = reason;
  }
}
