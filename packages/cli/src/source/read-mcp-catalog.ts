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
  type UpstreamState,
} from 'tool-search-mcp';
import { CliError } from '../cli/cli-error';
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
}

/** A catalog from a config, with the config's search options. */
export interface ConfigCatalog extends Catalog {
  /** The config's `toolSearch` object (its `topK` and `minScore` are the defaults of search). */
  toolSearch: ToolSearchConfig;
  /** The config's `embeddings` endpoint, when it has one. */
  embeddings?: EmbeddingsConfig;
}

/** Lines of an upstream's stderr kept for the error message when it fails to start: a crash's tail. */
const STDERR_LINES_KEPT = 20;
/** A stderr line that says what went wrong (Node's `Error: ...`, Python's `...Error: ...`). */
const ERROR_LINE =
  /\b(error|exception|fatal|cannot|can't|failed|not found|missing|denied|invalid)\b/i;
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
  const stderr = new Map<string, string[]>();
  const names = Object.keys(servers);
  const { tools, states } = await listUpstreamTools({
    servers,
    connectTimeout: options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT,
    clientInfo: { name: 'tool-search-cli', version: '0.0.0' },
    // Retries are for a long-running gateway; here a failed start is reported at once.
    restartBackoff: { initial: 0, max: 0 },
    log: (message) => {
      options.log?.(message);
      const server = names.find((name) => message.startsWith(`${name} (stderr): `));
      if (server === undefined) return;
      const lines = stderr.get(server) ?? [];
      lines.push(message.slice(server.length + ' (stderr): '.length));
      if (lines.length > STDERR_LINES_KEPT) lines.shift();
      stderr.set(server, lines);
    },
  });
  const failed = states.filter((state) => state.status === 'failed' || state.error !== undefined);
  if (failed.length > 0) {
    const lines = failed.map((state) =>
      describeFailure(failureText(state, stderr.get(state.server)), state.server),
    );
    throw new CliError(lines.join('\n'), { cause: label });
  }
  return tools;
}

function failureText(state: UpstreamState, stderr: string[] | undefined): string {
  const reason = `did not start: ${state.error ?? state.status}`;
  // Runtimes end a crash with lines that say little (Node prints its version last): prefer the
  // last line that names an error.
  const lines = (stderr ?? []).map((line) => line.trim()).filter((line) => line !== '');
  const telling =
    lines.findLast((line) => ERROR_LINE.test(line) && !line.startsWith('at ')) ?? lines.at(-1);
  return telling ? `${reason} (its stderr: ${telling})` : reason;
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
