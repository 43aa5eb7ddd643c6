import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import type { EmbedFunction, FusionSettings } from 'tool-search-core';

/**
 * The core's `embed` function for a LangChain `Embeddings` (`OpenAIEmbeddings`,
 * `OllamaEmbeddings`, any): tool texts through `embedDocuments`, a search's query through
 * `embedQuery`, so models that embed the two differently get it right. Batching and retries are
 * the `Embeddings`' own (its `batchSize`, `maxRetries`).
 * @param embeddings - the LangChain embeddings
 */
export function embedWithEmbeddings(embeddings: EmbeddingsInterface): EmbedFunction {
  return async (texts, options) =>
    options?.purpose === 'query' && texts.length === 1
      ? [await embeddings.embedQuery(texts[0]!)]
      : embeddings.embedDocuments(texts);
}

/** A name for the vectors: the class and its `model`, when it says. */
export function embeddingsName(embeddings: EmbeddingsInterface): string | undefined {
  const fields = embeddings as { model?: unknown; modelName?: unknown };
  const model =
    typeof fields.model === 'string'
      ? fields.model
      : typeof fields.modelName === 'string'
        ? fields.modelName
        : undefined;
  return model === undefined
    ? undefined
    : `${embeddings.constructor?.name ?? 'Embeddings'}:${model}`;
}

/**
 * The engine's `embed` and `fusion` for the adapter's options: `embeddings` turned into `embed`
 * (its model naming the vectors), or the options' own `embed`.
 * @throws when both `embeddings` and `embed` are given
 */
export function engineEmbeddingOptions(options: {
  embeddings?: EmbeddingsInterface | undefined;
  embed?: EmbedFunction | undefined;
  fusion?: FusionSettings | undefined;
}): { embed?: EmbedFunction; fusion?: FusionSettings } {
  const { embeddings, embed, fusion } = options;
  if (embeddings === undefined) {
    return { ...(embed !== undefined && { embed }), ...(fusion !== undefined && { fusion }) };
  }
  if (embed !== undefined) {
    throw new TypeError('tool-search-langchain: pass `embeddings` or `embed`, not both');
  }
  const model = embeddingsName(embeddings);
  return {
    embed: embedWithEmbeddings(embeddings),
    ...((fusion !== undefined || model !== undefined) && {
      fusion: { ...(model !== undefined && { model }), ...fusion },
    }),
  };
}
