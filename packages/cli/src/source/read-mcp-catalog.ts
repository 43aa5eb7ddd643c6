import {
  DEFAULT_CONNECT_TIMEOUT,
  type EmbeddingsConfig,
  GatewayConfigError,
  type GatewayTool,
  listUpstreamTools,
  loadGatewayConfig,
  parseGatewayConfig,
  type ToolSearchConfig,
  type UpstreamConfig,
} from 'tool-search-mcp';
import { CliError, EXIT_CODES } from '../cli/cli-error';
import type { Catalog, CatalogTool } from './catalog';

/** Options shared by the live sources. */
export interface LiveSourceOptions {
  /**
   * Per-server start timeout in ms (the handshake and the first tool list).
   * @default 10_000
   */
  connectTimeout?: number;
  /** Receives the gateway code's log lines (server starts, their stderr) and config warnings. */
  log?: (message: string) => void;
  /** Receives config warnings (unknown keys), one line each. */
  warn?: (message: string) => void;
  /**
   * The environment the servers inherit from (see the gateway's `upstreamEnvironment`).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
}

/** A catalog from a config, with the config's search options. */
export interface ConfigCatalog extends Catalog {
  /** The config's `toolSearch` object (its `topK` and `minScore` are the defaults of search). */
  toolSearch: ToolSearchConfig;
  /** The config's `embeddings` endpoint, when it has one. */
  embeddings?: EmbeddingsConfig;
}

/**
 * Signals that stop a command while it reads live servers: the servers (and what they started,
 * `npx`'s children included) are stopped before the command exits, instead of left running.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** The name `--mcp` gives its one server unless told otherwise. */
export const DEFAULT_MCP_SERVER_NAME = 'server';

/**
 * Starts one MCP server over stdio, lists its tools and stops it, through the gateway's
 * upstream code. Tool ids are the server's own tool names.
 * @param words - the command and its arguments
 * @param options - the server's name (for the name rule), the command line as typed (for
 *   messages), timeout and log
 * @throws {CliError} when the server does not start or cannot be listed
 */
export async function readMcpCatalog(
  words: readonly string[],
  options: LiveSourceOptions & { name?: string; commandLine?: string } = {},
): Promise<Catalog> {
  const label = `--mcp ${JSON.stringify(options.commandLine ?? words.join(' '))}`;
  const name = options.name ?? DEFAULT_MCP_SERVER_NAME;
  let servers: Record<string, UpstreamConfig>;
  try {
    // Validated by the gateway's own config reader, as if the server were in a config.
    const [command, ...args] = words;
    servers = parseGatewayConfig({ mcpServers: { [name]: { command, args } } }, { file: label })
      .config.mcpServers;
  } catch (error) {
    if (error instanceof GatewayConfigError) throw new CliError(error.message, { cause: error });
    throw error;
  }
  const tools = await listTools(servers, label, options, (state) => `${label}: ${state}`);
  return {
    tools: tools.map((tool) => ({ ...toCatalogTool(tool), id: tool.definition.name })),
    label,
    serverName: name,
  };
}

/**
 * Reads an `mcpServers` config with the gateway's loader, starts every server, lists their tools
 * and stops them. Tool ids are the names the gateway exposes (`<server>__<tool>`).
 * @param file - the config file
 * @param options - timeout, log and warnings
 * @throws {CliError} for a config the gateway refuses (file and JSON path) or a server that does not start
 */
export async function readConfigCatalog(
  file: string,
  options: LiveSourceOptions = {},
): Promise<ConfigCatalog> {
  let config: Awaited<ReturnType<typeof loadGatewayConfig>>;
  try {
    config = await loadGatewayConfig(file);
  } catch (error) {
    if (error instanceof GatewayConfigError) throw new CliError(error.message, { cause: error });
    throw error;
  }
  for (const warning of config.warnings) options.warn?.(`warning: ${warning}`);
  const tools = await listTools(
    config.config.mcpServers,
    file,
    options,
    (state, server) => `${file}: server ${JSON.stringify(server)}: ${state}`,
  );
  return {
    tools: tools.map(toCatalogTool),
    label: file,
    serverName: '',
    toolSearch: config.config.toolSearch ?? {},
    ...(config.config.embeddings && { embeddings: config.config.embeddings }),
  };
}

async function listTools(
  servers: Record<string, UpstreamConfig>,
  label: string,
  options: LiveSourceOptions,
  describeFailure: (problem: string, server: string) => string,
): Promise<GatewayTool[]> {
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) =>
    controller.abort(
      new CliError(`stopped by ${signal}; the MCP servers it started are stopped`, {
        exitCode: EXIT_CODES.interrupted,
      }),
    );
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  let listed: Awaited<ReturnType<typeof listUpstreamTools>>;
  try {
    listed = await listUpstreamTools({
      servers,
      connectTimeout: options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT,
      clientInfo: { name: 'tool-search-cli', version: '0.0.0' },
      // Retries are for a long-running gateway; here a failed start is reported at once.
      restartBackoff: { initial: 0, max: 0 },
      log: (message) => options.log?.(message),
      ...(options.env && { env: options.env }),
      signal: controller.signal,
    });
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  }
  const { tools, states } = listed;
  const failed = states.filter((state) => state.status === 'failed' || state.error !== undefined);
  if (failed.length > 0) {
    // The gateway's reason names the cause: the error, how the server exited, its stderr's end.
    const lines = failed.map((state) =>
      describeFailure(`did not start: ${state.error ?? state.status}`, state.server),
    );
    throw new CliError(lines.join('\n'), { cause: label });
  }
  return tools;
}

function toCatalogTool(tool: GatewayTool): CatalogTool {
  const { definition } = tool;
  return {
    id: tool.name,
    // The gateway searches the title when a tool has no description.
    description: definition.description ?? definition.title ?? '',
    ...(definition.inputSchema && { inputSchema: definition.inputSchema }),
    server: tool.server,
    name: definition.name,
  };
}
