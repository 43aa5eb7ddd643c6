/**
 * What the gateway benchmarks share: where the npm MCP servers and the built gateway are, how to
 * start the gateway as a process, and percentiles.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  createManifestCache,
  createToolSearchGateway,
  createUpstreamManager,
} from 'tool-search-mcp';
import { type DataTool, REPO_ROOT } from './data';

const BENCH_ROOT = path.resolve(import.meta.dirname, '..');

/** Entry points of the npm reference servers, run with node. */
export const NPM_SERVERS = {
  everything: path.join(
    BENCH_ROOT,
    'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
  ),
  filesystem: path.join(
    BENCH_ROOT,
    'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
  ),
  memory: path.join(BENCH_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
} as const;

/** The built gateway: start-up is measured on what users run, not on TypeScript sources. */
export const GATEWAY_BIN = path.join(REPO_ROOT, 'packages/mcp/dist/bin.js');

/** Stops with a clear message when the gateway has not been built. */
export function requireBuiltGateway(): void {
  if (!existsSync(GATEWAY_BIN)) {
    throw new Error(
      `${GATEWAY_BIN} is missing: run \`pnpm --filter tool-search-mcp... build\` first`,
    );
  }
}

/** A fresh temporary folder. */
export function temporaryDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'gateway-bench-'));
}

/** The upstream entry whose cached manifest is a catalog; it is never started. */
const CATALOG_UPSTREAM = { command: 'never-started-catalog-server' };

/** A gateway in this process over a catalog, and an MCP client connected to it. */
export interface InProcessGateway {
  client: Client;
  /** The temporary folder of the manifest cache (`close` removes it). */
  dir: string;
  /** Reading the cached manifest and indexing it (`gateway.ready()`). */
  readyMs: number;
  close(): Promise<void>;
}

/**
 * A gateway whose one upstream's tool list is `catalog`, served from a warm manifest cache (so no
 * upstream runs; tools are exposed as `catalog__<id>`), with an MCP client connected over the SDK's
 * in-memory transport: JSON-RPC and validation included, no socket or process.
 */
export async function startInProcessGateway(
  catalog: readonly DataTool[],
): Promise<InProcessGateway> {
  const dir = await temporaryDir();
  const cache = createManifestCache(dir);
  await cache.write(
    CATALOG_UPSTREAM,
    catalog.map((tool) => ({
      name: tool.id,
      description: tool.description,
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as { type: 'object' },
    })),
  );
  const began = performance.now();
  const upstreams = createUpstreamManager({
    servers: { catalog: CATALOG_UPSTREAM },
    cache,
    log: () => undefined,
  });
  const gateway = createToolSearchGateway({ upstreams, log: () => undefined });
  await gateway.ready();
  const readyMs = performance.now() - began;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = new Client({ name: 'gateway-bench', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    dir,
    readyMs,
    async close() {
      await client.close();
      await gateway.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An MCP client connected to a program over stdio; its stderr is kept. */
export async function connectStdio(
  command: string,
  args: string[],
  env?: Record<string, string>,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command,
    args,
    stderr: 'pipe',
    ...(env && { env: { ...(process.env as Record<string, string>), ...env } }),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: 'gateway-bench', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The p-th percentile (0-100) of values, by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median of values. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
