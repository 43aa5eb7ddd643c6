import {
  createOpenAICompatibleEmbed,
  type EmbedFunction,
  type FusionSettings,
} from 'tool-search-core';
import { childPath, GatewayConfigError } from '../config/config-error';
import type { EmbeddingsConfig } from '../config/gateway-config';
import { redactorOf } from '../config/variable-values';

/** What the engine takes for semantic search, made from an `embeddings` config. */
export interface ConfiguredEmbeddings {
  /** Calls the endpoint. */
  embed: EmbedFunction;
  /** `model` (which names the vectors) and `timeout`, for the engine's `fusion` option. */
  fusion: FusionSettings;
  /** The model and the endpoint, without credentials, for log lines. */
  label: string;
}

/** Options of {@link createEmbedFromConfig}. */
export interface CreateEmbedFromConfigOptions {
  /**
   * Where `apiKeyEnv` is looked up.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Names the config in errors.
   * @default 'config'
   */
  file?: string;
  /**
   * The JSON path of the `embeddings` object, for errors.
   * @default '$.embeddings'
   */
  path?: string;
}

/**
 * Turns an `embeddings` config into the engine's `embed` function and `fusion` settings, reading
 * the API key from the environment variable `apiKeyEnv` names.
 * @param config - a validated `embeddings` object (see `parseGatewayConfig`)
 * @param options - the environment, and the file and path named in errors
 * @throws {GatewayConfigError} when `apiKeyEnv` names a variable that is not set
 * @example
 * const { embed, fusion } = createEmbedFromConfig(config.embeddings, { file: 'gateway.json' });
 * const engine = createToolSearchEngine({ tools, describe, embed, fusion });
 */
export function createEmbedFromConfig(
  config: EmbeddingsConfig,
  options: CreateEmbedFromConfigOptions = {},
): ConfiguredEmbeddings {
  const { env = process.env, file = 'config', path = '$.embeddings' } = options;
  let apiKey = config.apiKey;
  if (config.apiKeyEnv !== undefined) {
    apiKey = env[config.apiKeyEnv] || undefined;
    if (apiKey === undefined) {
      throw new GatewayConfigError({
        file,
        path: childPath(path, 'apiKeyEnv'),
        problem: `names the environment variable ${config.apiKeyEnv}, which is not set: set it to the API key, or remove "apiKeyEnv" for an endpoint without one`,
      });
    }
  }
  const endpoint = createOpenAICompatibleEmbed({
    url: config.url,
    model: config.model,
    apiKey,
    headers: config.headers,
    batchSize: config.batchSize,
    dimensions: config.dimensions,
  });
  // An endpoint's error page may echo the request's Authorization header: the key a variable
  // held is written as `${NAME}` in every error (and so every log line) it causes.
  const redact =
    config.apiKeyEnv !== undefined && apiKey !== undefined
      ? redactorOf(new Map([[config.apiKeyEnv, apiKey]]))
      : undefined;
  const embed: EmbedFunction = redact
    ? async (texts, callOptions) => {
        try {
          return await endpoint(texts, callOptions);
        } catch (error) {
          throw redactedError(error, redact);
        }
      }
    : endpoint;
  return {
    embed,
    fusion: {
      model: embeddingsModelName(config),
      ...(config.timeout !== undefined && { timeout: config.timeout }),
    },
    label: `${config.model} at ${withoutCredentials(config.url)}`,
  };
}

/**
 * The name the vectors are recorded under: the model, and the dimension when one is asked for
 * (the same model at another dimension makes vectors that must not be mixed).
 */
export function embeddingsModelName(config: Pick<EmbeddingsConfig, 'model' | 'dimensions'>) {
  return config.dimensions === undefined ? config.model : `${config.model}@${config.dimensions}`;
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url;
  }
}

/** Causes followed at most when an error is redacted (log lines show four). */
const MAX_REDACTED_CAUSES = 4;

/** An error like `error` (its name and its causes' messages) with each message redacted. */
function redactedError(error: unknown, redact: (text: string) => string, depth = 0): Error {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  const redacted = new Error(
    redact(message),
    cause !== undefined && depth < MAX_REDACTED_CAUSES
      ? { cause: redactedError(cause, redact, depth + 1) }
      : undefined,
  );
  if (error instanceof Error) redacted.name = error.name;
  return redacted;
}
