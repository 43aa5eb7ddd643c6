import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CallToolResult,
  Client,
  StreamableHTTPClientTransport,
  type Tool,
} from '@modelcontextprotocol/client';
import type { ToolSearchConfig, UpstreamConfig } from '../config/gateway-config';
import { type GatewayHttpServer, serveGatewayHttp } from '../gateway/serve-http';
import { createToolSearchGateway, type ToolSearchGateway } from '../gateway/tool-search-gateway';
import { createManifestCache } from '../upstream/manifest-cache';
import { createUpstreamManager, type UpstreamManagerOptions } from '../upstream/upstream-manager';

/** A gateway served over HTTP on a free loopback port, with its log kept for assertions. */
export interface HttpGateway {
  gateway: ToolSearchGateway;
  http: GatewayHttpServer;
  logs: string[];
  /** A new MCP client session on the gateway. */
  connect(): Promise<Client>;
  close(): Promise<void>;
}

/** Starts a gateway over HTTP for a test. */
export async function startHttpGateway(options: {
  servers: Record<string, UpstreamConfig>;
  toolSearch?: ToolSearchConfig;
  cacheDir?: string;
  upstream?: Partial<UpstreamManagerOptions>;
}): Promise<HttpGateway> {
  const logs: string[] = [];
  const log = (message: string) => {
    logs.push(message);
  };
  const upstreams = createUpstreamManager({
    servers: options.servers,
    cache: options.cacheDir === undefined ? undefined : createManifestCache(options.cacheDir),
    // Generous: the CI machine may be busy, and only the broken-upstream tests wait this long.
    connectTimeout: 15_000,
    callTimeout: 15_000,
    restartBackoff: { initial: 200, max: 1_000 },
    log,
    ...options.upstream,
  });
  // The suites on this harness check how `'tools'` lists loads (list_changed, load order); the
  // proxy (the default) is asked for by the tests about it.
  const toolSearch: ToolSearchConfig = { expose: 'tools', enabled: true, ...options.toolSearch };
  const gateway = createToolSearchGateway({ upstreams, toolSearch, log });
  await gateway.ready();
  const http = await serveGatewayHttp(gateway, { port: 0 });
  const clients: Client[] = [];
  return {
    gateway,
    http,
    logs,
    async connect() {
      const client = new Client({ name: 'test-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(http.url));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await http.close();
      await gateway.close();
    },
  };
}

/** `tools/list` without the client's response cache: the names, in order. */
export async function listToolNames(client: Client): Promise<string[]> {
  return (await listTools(client)).map((tool) => tool.name);
}

/** `tools/list` without the client's response cache. */
export async function listTools(client: Client): Promise<Tool[]> {
  const result = await client.request({ method: 'tools/list', params: {} });
  return result.tools;
}

/** A raw `tools/call`: the result exactly as the gateway sent it. */
export async function callTool(
  client: Client,
  name: string,
  args?: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.request({
    method: 'tools/call',
    params: { name, ...(args !== undefined && { arguments: args }) },
  })) as CallToolResult;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** A fresh temporary folder, removed by the returned function. */
export async function temporaryDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tool-search-mcp-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
