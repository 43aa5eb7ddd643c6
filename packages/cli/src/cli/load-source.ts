import type { EmbeddingsConfig, ToolSearchConfig } from 'tool-search-mcp';
import type { Catalog, LabelledQuery } from '../source/catalog';
import { readCatalogFile } from '../source/read-catalog-file';
import { readConfigCatalog, readMcpCatalog } from '../source/read-mcp-catalog';
import { CliError, UsageError } from './cli-error';
import type { CliIo } from './cli-io';
import {
  type EmbeddingsFlagValues,
  type EmbeddingsSetup,
  readEmbeddingsFlags,
} from './embeddings-flags';
import { number } from './ranking-flags';
import { splitCommand } from './split-command';

/** The source flags of `search`, `eval` and `inspect`, as `parseArgs` declares them. */
export const SOURCE_FLAGS = {
  mcp: { type: 'string' },
  config: { type: 'string' },
  name: { type: 'string' },
  'connect-timeout': { type: 'string' },
} as const;

/** The source flags' values after `parseArgs`. */
export interface SourceFlagValues {
  mcp?: string | undefined;
  config?: string | undefined;
  name?: string | undefined;
  'connect-timeout'?: string | undefined;
}

/** A catalog read from the command line's source, with what else the source holds. */
export interface LoadedSource extends Catalog {
  /** Labelled queries, when the source is a file that has them. */
  queries?: LabelledQuery[];
  /** The config's `toolSearch`, for `--config`. */
  toolSearch?: ToolSearchConfig;
  /** The config's `embeddings`, for `--config`. */
  embeddings?: EmbeddingsConfig;
}

/** Whether the command line names a live source (`--mcp` or `--config`) instead of a file. */
export function hasLiveSource(values: SourceFlagValues): boolean {
  if (values.mcp !== undefined && values.config !== undefined)
    throw new UsageError('give either --mcp or --config, not both');
  if (values.name !== undefined && values.mcp === undefined)
    throw new UsageError('--name goes with --mcp');
  if (
    values['connect-timeout'] !== undefined &&
    values.mcp === undefined &&
    values.config === undefined
  )
    throw new UsageError('--connect-timeout goes with --mcp or --config');
  return values.mcp !== undefined || values.config !== undefined;
}

/**
 * Reads the live source the flags name (`--mcp` or `--config`).
 * @throws {CliError} for a config the gateway refuses or a server that does not start
 */
export async function loadLiveSource(values: SourceFlagValues, io: CliIo): Promise<LoadedSource> {
  const connectTimeout =
    values['connect-timeout'] === undefined
      ? undefined
      : number('--connect-timeout', values['connect-timeout'], { min: 1, integer: true });
  const live = {
    ...(connectTimeout !== undefined && { connectTimeout }),
    // The servers' own logs (start, stderr) matter only when something is being debugged.
    log: (message: string) => {
      if (io.debug) io.stderr.write(`[mcp] ${message}\n`);
    },
    warn: (message: string) => io.warn(message),
    env: io.env,
  };
  if (values.mcp !== undefined) {
    const words = splitCommand(values.mcp);
    if (words.length === 0)
      throw new UsageError('--mcp needs a command, e.g. --mcp "npx -y @scope/server"');
    if (values.name !== undefined && values.name.trim() === '')
      throw new UsageError('--name must not be empty');
    return readMcpCatalog(words, {
      ...live,
      commandLine: values.mcp,
      ...(values.name !== undefined && { name: values.name }),
    });
  }
  return readConfigCatalog(values.config!, live);
}

/**
 * Reads a catalog file (the `FILE` of a command line).
 * @param file - the path
 * @param need - what the command needs from the file
 * @throws {CliError} for a missing or malformed file, or one without what the command needs
 */
export async function loadFileSource(
  file: string,
  need: { tools: boolean; queries: boolean },
): Promise<LoadedSource> {
  const read = await readCatalogFile(file);
  if (need.tools && !read.tools) {
    const hint = need.queries ? '' : ' (a file of queries alone goes with --mcp or --config)';
    throw new CliError(`${file}: $: needs a "tools" array${hint}`);
  }
  if (need.queries && !read.queries)
    throw new CliError(`${file}: $: needs a "queries" array of { "query", "relevant": [ids] }`);
  return {
    tools: read.tools ?? [],
    label: file,
    serverName: read.name,
    ...(read.queries && { queries: read.queries }),
  };
}

/**
 * The embeddings endpoint of a command line (see {@link readEmbeddingsFlags}), with the
 * `--config` file's `embeddings` among the sources.
 */
export function embeddingsOf(
  values: EmbeddingsFlagValues & SourceFlagValues,
  source: LoadedSource,
  io: CliIo,
): EmbeddingsSetup | undefined {
  return readEmbeddingsFlags(
    values,
    io.env,
    values.config === undefined
      ? undefined
      : { file: values.config, embeddings: source.embeddings },
  );
}
