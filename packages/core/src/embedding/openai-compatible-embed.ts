import type { EmbedFunction } from './embed-function';

/** Options of {@link createOpenAICompatibleEmbed}. */
export interface OpenAICompatibleEmbedOptions {
  /**
   * The API's base URL, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`
   * (Ollama); texts are posted to `${url}/embeddings`. A URL that already ends in `/embeddings`
   * is used as is.
   */
  url: string;
  /** The embedding model, e.g. `text-embedding-3-small`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /** More request headers (they win over `Authorization` and `Content-Type`). */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Texts per request at most; larger inputs are sent in several requests, one after another.
   * @default 32
   */
  batchSize?: number | undefined;
  /** Asks models that support it (OpenAI's text-embedding-3) for shorter vectors. */
  dimensions?: number | undefined;
  /** The `fetch` to use (a proxy-aware one, or one with retries). @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** Texts per request by default: Hugging Face's text-embeddings-inference refuses more by default. */
const DEFAULT_BATCH_SIZE = 32;
/** An error body is quoted up to this many characters: enough for the API's message. */
const MAX_QUOTED_BODY = 300;

/**
 * An {@link EmbedFunction} that calls an OpenAI-compatible embeddings endpoint (OpenAI, Azure
 * OpenAI, Ollama, LM Studio, vLLM, LiteLLM, text-embeddings-inference...): `POST {url}/embeddings`
 * with `{ model, input, encoding_format: 'float' }`, in batches. A non-2xx answer or a malformed
 * body rejects with the status and the start of the body; the engine then answers with BM25F.
 * @param options - the endpoint, the model, and the key or headers
 * @example
 * const engine = createToolSearchEngine({
 *   tools,
 *   describe,
 *   embed: createOpenAICompatibleEmbed({
 *     url: 'https://api.openai.com/v1',
 *     model: 'text-embedding-3-small',
 *     apiKey: process.env.OPENAI_API_KEY,
 *   }),
 *   fusion: { model: 'text-embedding-3-small' },
 * });
 */
export function createOpenAICompatibleEmbed(options: OpenAICompatibleEmbedOptions): EmbedFunction {
  if (!options || typeof options.url !== 'string' || options.url.trim() === '') {
    throw new TypeError('createOpenAICompatibleEmbed: `url` is required');
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new TypeError('createOpenAICompatibleEmbed: `model` is required');
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) {
    throw new RangeError(
      `createOpenAICompatibleEmbed: batchSize must be an integer >= 1, got ${batchSize}`,
    );
  }
  const base = options.url.trim().replace(/\/+$/, '');
  const endpoint = /\/embeddings$/.test(base) ? base : `${base}/embeddings`;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    ...(options.apiKey && { Authorization: `Bearer ${options.apiKey}` }),
    ...options.headers,
  };
  const { model, dimensions } = options;

  const embedBatch = async (input: string[], signal: AbortSignal | undefined) => {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const response = await fetchImpl(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model,
        input,
        encoding_format: 'float',
        ...(dimensions !== undefined && { dimensions }),
      }),
      ...(signal && { signal }),
    });
    const body = await response.text();
    if (!response.ok) {
      throw new Error(
        `Embeddings endpoint ${endpoint} answered ${response.status} ${response.statusText}: ${body.slice(0, MAX_QUOTED_BODY)}`,
      );
    }
    return vectorsOf(body, input.length, endpoint);
  };

  return async (texts, callOptions) => {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      vectors.push(
        ...(await embedBatch(texts.slice(start, start + batchSize), callOptions?.signal)),
      );
    }
    return vectors;
  };
}

/** The vectors of an embeddings answer, in input order (`data[].index`), or an error naming what is wrong. */
function vectorsOf(body: string, count: number, endpoint: string): number[][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error(
      `Embeddings endpoint ${endpoint} did not answer JSON: ${body.slice(0, MAX_QUOTED_BODY)}`,
    );
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== count) {
    throw new Error(
      `Embeddings endpoint ${endpoint} answered ${Array.isArray(data) ? data.length : 'no'} embeddings for ${count} texts`,
    );
  }
  const vectors: number[][] = new Array(count);
  for (const [position, item] of data.entries()) {
    const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
    const slot = typeof index === 'number' ? index : position;
    if (!Array.isArray(embedding) || !Number.isInteger(slot) || slot < 0 || slot >= count) {
      throw new Error(
        `Embeddings endpoint ${endpoint} answered a malformed embedding at ${position}`,
      );
    }
    vectors[slot] = embedding as number[];
  }
  // A loop, not `some`: `some` skips the holes a duplicate index leaves.
  for (let slot = 0; slot < count; slot++) {
    if (vectors[slot] === undefined)
      throw new Error(`Embeddings endpoint ${endpoint} answered duplicate embedding indexes`);
  }
  return vectors;
}
