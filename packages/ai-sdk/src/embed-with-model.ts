import { type EmbeddingModel, embedMany } from 'ai';
import type { EmbedFunction, FusionSettings } from 'tool-search-core';

/** `embedMany` as the AI SDK majors share it: values in, one embedding per value out. */
export type EmbedMany = (options: {
  model: never;
  values: string[];
  abortSignal?: AbortSignal;
}) => PromiseLike<{ embeddings: ReadonlyArray<ArrayLike<number>> }>;

/**
 * The core's `embed` function for an AI SDK embedding model (`openai.embedding(...)`, a gateway
 * model id string, any provider's): `embedMany` splits the texts by the model's per-call limit,
 * retries and aborts when the engine stops waiting.
 * @param model - the embedding model
 * @param embedManyFunction - the `embedMany` to call; the installed `ai`'s by default
 */
export function embedWithModel(
  model: EmbeddingModel,
  embedManyFunction: EmbedMany = embedMany as unknown as EmbedMany,
): EmbedFunction {
  return async (texts, options) => {
    const { embeddings } = await embedManyFunction({
      model: model as never,
      values: texts,
      ...(options?.signal && { abortSignal: options.signal }),
    });
    return embeddings;
  };
}

/** A name for the model's vectors, so cached vectors of another model are never reused. */
export function embeddingModelName(model: EmbeddingModel): string {
  if (typeof model === 'string') return model;
  const { provider, modelId } = model as { provider?: unknown; modelId?: unknown };
  return `${String(provider)}:${String(modelId)}`;
}

/**
 * The engine options an `embeddingModel` option stands for: `embed` through the model, and
 * `fusion.model` named after it (an explicit `fusion.model` wins); none without a model.
 * @param caller - who is asking, for the error
 * @throws TypeError when both `embeddingModel` and `embed` are given
 */
export function embeddingModelOptions(
  caller: string,
  embeddingModel: EmbeddingModel | undefined,
  engineOptions: { embed?: EmbedFunction | undefined; fusion?: FusionSettings | undefined },
): { embed?: EmbedFunction; fusion?: FusionSettings } {
  if (embeddingModel === undefined) return {};
  if (engineOptions.embed !== undefined) {
    throw new TypeError(`${caller}: pass \`embeddingModel\` or \`embed\`, not both`);
  }
  return {
    embed: embedWithModel(embeddingModel),
    fusion: { model: embeddingModelName(embeddingModel), ...engineOptions.fusion },
  };
}
