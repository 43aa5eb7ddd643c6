import type { EmbedFunction, FusionSettings } from 'tool-search-core';
import {
  createEmbedFromConfig,
  type EmbeddingsConfig,
  embeddingsModelName,
  GatewayConfigError,
} from 'tool-search-mcp';
import { CliError, UsageError } from './cli-error';

/** The embeddings flags of `search` and `eval`, as `parseArgs` declares them. */
export const EMBEDDINGS_FLAGS = {
  'embeddings-url': { type: 'string' },
  'embeddings-model': { type: 'string' },
  'embeddings-key-env': { type: 'string' },
  'no-embeddings': { type: 'boolean' },
} as const;

/** The embeddings flags' values after `parseArgs`. */
export interface EmbeddingsFlagValues {
  'embeddings-url'?: string | undefined;
  'embeddings-model'?: string | undefined;
  'embeddings-key-env'?: string | undefined;
  'no-embeddings'?: boolean | undefined;
}

/** The environment variables the benchmark reads too. */
export const EMBEDDINGS_ENV = {
  url: 'TOOL_SEARCH_EMBEDDINGS_URL',
  model: 'TOOL_SEARCH_EMBEDDINGS_MODEL',
  apiKey: 'TOOL_SEARCH_EMBEDDINGS_API_KEY',
} as const;

/** A person waits at a terminal for a whole catalog, not an agent for one step: a minute per call. */
export const CLI_EMBED_TIMEOUT = 60_000;

/** An embeddings endpoint to fuse with, and where it was configured. */
export interface EmbeddingsSetup {
  embed: EmbedFunction;
  fusion: FusionSettings;
  /** The model, as the output names it. */
  model: string;
  /** The model and endpoint, without credentials. */
  label: string;
  /** Which of the flags, the `--config` file's `embeddings` or the environment set it. */
  source: 'flags' | 'config' | 'environment';
}

/**
 * The embeddings endpoint the command line configures, or `undefined` for BM25F alone. The first
 * of these that names an endpoint wins as a whole, so a key is never sent to another source's
 * URL: `--embeddings-url` (with `--embeddings-model`), the `--config` file's `embeddings`, the
 * `TOOL_SEARCH_EMBEDDINGS_URL` / `_MODEL` / `_API_KEY` variables. `--embeddings-model` and
 * `--embeddings-key-env` alone change the model and the key of the config's or the
 * environment's endpoint; `--no-embeddings` turns fusion off.
 * @param values - the parsed flags
 * @param env - the environment (variables and the keys they name)
 * @param config - the `--config` file and its `embeddings`, when the source is a config
 * @throws {UsageError} for flags that do not fit together or name an unset variable
 * @throws {CliError} for a config whose `apiKeyEnv` names an unset variable
 */
export function readEmbeddingsFlags(
  values: EmbeddingsFlagValues,
  env: NodeJS.ProcessEnv,
  config?: { file: string; embeddings: EmbeddingsConfig | undefined },
): EmbeddingsSetup | undefined {
  const url = values['embeddings-url'];
  const model = values['embeddings-model'];
  const keyEnv = values['embeddings-key-env'];
  if (values['no-embeddings']) {
    if (url !== undefined || model !== undefined || keyEnv !== undefined)
      throw new UsageError('--no-embeddings goes with no other --embeddings-* flag');
    return undefined;
  }
  if (keyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv))
      throw new UsageError(
        `--embeddings-key-env must name an environment variable, got "${keyEnv}"`,
      );
    if (!env[keyEnv])
      throw new UsageError(`--embeddings-key-env names ${keyEnv}, which is not set`);
  }
  if (model !== undefined && model.trim() === '')
    throw new UsageError('--embeddings-model must not be empty');
  const overrides = {
    ...(model !== undefined && { model }),
    ...(keyEnv !== undefined && { apiKeyEnv: keyEnv }),
  };
  if (url !== undefined) {
    checkUrl('--embeddings-url', url);
    if (model === undefined) throw new UsageError('--embeddings-url needs --embeddings-model');
    return setup({ url, model, ...overrides }, 'flags', env);
  }
  if (config?.embeddings) {
    const { apiKey, apiKeyEnv, ...endpoint } = config.embeddings;
    const key =
      keyEnv !== undefined
        ? {}
        : {
            ...(apiKey !== undefined && { apiKey }),
            ...(apiKeyEnv !== undefined && { apiKeyEnv }),
          };
    return setup({ ...endpoint, ...key, ...overrides }, 'config', env, config.file);
  }
  const envUrl = env[EMBEDDINGS_ENV.url]?.trim();
  if (envUrl) {
    checkUrl(EMBEDDINGS_ENV.url, envUrl);
    const envModel = model ?? env[EMBEDDINGS_ENV.model]?.trim();
    if (!envModel)
      throw new UsageError(
        `${EMBEDDINGS_ENV.url} is set, but ${EMBEDDINGS_ENV.model} is not (or give --embeddings-model)`,
      );
    const apiKeyEnv = keyEnv ?? (env[EMBEDDINGS_ENV.apiKey] ? EMBEDDINGS_ENV.apiKey : undefined);
    return setup(
      { url: envUrl, model: envModel, ...(apiKeyEnv !== undefined && { apiKeyEnv }) },
      'environment',
      env,
    );
  }
  if (model !== undefined || keyEnv !== undefined)
    throw new UsageError(
      `--embeddings-model and --embeddings-key-env need an endpoint: --embeddings-url, "embeddings" in the --config file, or ${EMBEDDINGS_ENV.url}`,
    );
  return undefined;
}

function setup(
  config: EmbeddingsConfig,
  source: EmbeddingsSetup['source'],
  env: NodeJS.ProcessEnv,
  file?: string,
): EmbeddingsSetup {
  try {
    const configured = createEmbedFromConfig(config, { env, ...(file !== undefined && { file }) });
    return {
      embed: configured.embed,
      fusion: { timeout: CLI_EMBED_TIMEOUT, ...configured.fusion },
      model: embeddingsModelName(config),
      label: configured.label,
      source,
    };
  } catch (error) {
    if (error instanceof GatewayConfigError) throw new CliError(error.message, { cause: error });
    throw error;
  }
}

function checkUrl(name: string, url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new UsageError(`${name} is not a URL: "${url}"`);
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new UsageError(`${name} must be an http: or https: URL, got "${url}"`);
}
