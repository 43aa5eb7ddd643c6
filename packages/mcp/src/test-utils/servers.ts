import { fileURLToPath } from 'node:url';
import type { StdioUpstreamConfig } from '../config/gateway-config';

/** The package's folder (with a trailing slash). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fromPackage = (relative: string) => `${PACKAGE_ROOT}${relative}`;

/** The fixture server of the failure tests (see fixture-server.mjs for its flags). */
export const FIXTURE_SERVER = fromPackage('src/test-utils/fixture-server.mjs');

/** The smallest MCP server (hand-written JSON-RPC), for tests that start many upstreams. */
export const TINY_SERVER = fromPackage('src/test-utils/tiny-server.mjs');

/** Entry points of the npm reference servers, started with node (no npx, no network). */
export const NPM_SERVERS = {
  everything: fromPackage('node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  filesystem: fromPackage('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
  memory: fromPackage('node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
} as const;

/** The gateway's bin, run from source (tsx resolves the workspace's extensionless imports). */
export const GATEWAY_BIN = fromPackage('src/bin.ts');

/** A stdio upstream entry that runs the fixture server with flags. */
export function fixture(
  args: string[] = [],
  extra: Partial<StdioUpstreamConfig> = {},
): StdioUpstreamConfig {
  return { command: process.execPath, args: [FIXTURE_SERVER, ...args], ...extra };
}

/** A stdio upstream entry that runs one of the npm servers with node. */
export function npmServer(
  name: keyof typeof NPM_SERVERS,
  args: string[] = [],
  extra: Partial<StdioUpstreamConfig> = {},
): StdioUpstreamConfig {
  return { command: process.execPath, args: [NPM_SERVERS[name], ...args], ...extra };
}
