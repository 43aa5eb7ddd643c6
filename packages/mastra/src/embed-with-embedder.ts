import type { EmbeddingModelId } from '@mastra/core/llm';
import type { MastraEmbeddingModel, MastraEmbeddingOptions } from '@mastra/core/vector';
import type { EmbedFunction, FusionSettings } from 'tool-search-core';

/**
 * An embedder as Mastra's memory takes it: an AI SDK embedding model, or a model router id such
 * as `'openai/text-embedding-3-small'`. Models of AI SDK versions newer than the ones Mastra's
 * types know (ai 7's v4 models) fit too.
 */
export type MastraEmbedder =
  | EmbeddingModelId
  | MastraEmbeddingModel<string>
  | AnyEmbeddingModel
  | (string & {});

/** Any AI SDK embedding model, of whatever specification version: what the adapter calls. */
export interface AnyEmbeddingModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doEmbed(options: {
    values: string[];
    abortSignal?: AbortSignal;
  }): PromiseLike<{ embeddings: ReadonlyArray<ArrayLike<number>> }>;
}

/** What every AI SDK embedding model version has in common. */
interface DoEmbedModel {
  provider?: string;
  modelId?: string;
  maxEmbeddingsPerCall?: number | PromiseLike<number | undefined> | undefined;
  doEmbed(options: {
    values: string[];
    abortSignal?: AbortSignal;
    headers?: Record<string, string | undefined>;
    providerOptions?: unknown;
  }): PromiseLike<{ embeddings: ReadonlyArray<ArrayLike<number>> }>;
}

/**
 * The core's `embed` function for a Mastra embedder: the model's `doEmbed`, in calls of at most
 * its `maxEmbeddingsPerCall` texts, with `embedderOptions`' headers and provider options. A router
 * id is resolved by `@mastra/core/llm`'s `ModelRouterEmbeddingModel` on first use.
 * @param embedder - a model or a router id
 * @param options - Mastra's `embedderOptions` (`headers`, `providerOptions`)
 */
export function embedWithEmbedder(
  embedder: MastraEmbedder,
  options: MastraEmbeddingOptions = {},
): EmbedFunction {
  let resolved: Promise<DoEmbedModel> | undefined;
  const modelOf = (): Promise<DoEmbedModel> => {
    if (typeof embedder !== 'string') return Promise.resolve(embedder as unknown as DoEmbedModel);
    // Only a router id needs the router: imported on first use, and retried after a failure.
    resolved ??= import('@mastra/core/llm')
      .then(
        ({ ModelRouterEmbeddingModel }) => new ModelRouterEmbeddingModel(embedder) as DoEmbedModel,
      )
      .catch((error: unknown) => {
        resolved = undefined;
        throw error;
      });
    return resolved;
  };
  return async (texts, callOptions) => {
    const model = await modelOf();
    const limit = await model.maxEmbeddingsPerCall;
    const size = typeof limit === 'number' && limit >= 1 ? limit : texts.length;
    const vectors: ArrayLike<number>[] = [];
    for (let start = 0; start < texts.length; start += size) {
      const { embeddings } = await model.doEmbed({
        values: texts.slice(start, start + size),
        ...(callOptions?.signal && { abortSignal: callOptions.signal }),
        ...(options.headers && { headers: options.headers }),
        ...(options.providerOptions && { providerOptions: options.providerOptions }),
      });
      vectors.push(...embeddings);
    }
    return vectors;
  };
}

/** A name for the embedder's vectors, so cached vectors of another model are never reused. */
export function embedderName(embedder: MastraEmbedder): string {
  if (typeof embedder === 'string') return embedder;
  const { provider, modelId } = embedder as { provider?: unknown; modelId?: unknown };
  return `${String(provider)}:${String(modelId)}`;
}

/**
 * The engine's `embed` and `fusion` for the processor's options: `embedder` turned into `embed`
 * (its model naming the vectors), or the options' own `embed`.
 * @throws when both `embedder` and `embed` are given
 */
export function engineEmbeddingOptions(options: {
  embedder?: MastraEmbedder | undefined;
  embedderOptions?: MastraEmbeddingOptions | undefined;
  embed?: EmbedFunction | undefined;
  fusion?: FusionSettings | undefined;
}): { embed?: EmbedFunction; fusion?: FusionSettings } {
  const { embedder, embedderOptions, embed, fusion } = options;
  if (embedder === undefined) {
    return { ...(embed !== undefined && { embed }), ...(fusion !== undefined && { fusion }) };
  }
  if (embed !== undefined) {
    throw new TypeError('ToolSearchProcessor: pass `embedder` or `embed`, not both');
  }
  return {
    embed: embedWithEmbedder(embedder, embedderOptions),
    fusion: { model: embedderName(embedder), ...fusion },
  };
}
