import { execFile } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { GATEWAY_BIN, PACKAGE_ROOT } from './servers';

/** Node's arguments that run the gateway's bin from source (tsx, the workspace's source condition). */
const BIN_ARGS = ['--import', 'tsx', '--conditions=tool-search-source', GATEWAY_BIN];

/** Runs `tool-search-mcp ARGS` to its end (e.g. `approve`), as its own process. */
export function runGatewayBin(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...BIN_ARGS, ...args],
      { cwd: PACKAGE_ROOT, env: options.env ?? process.env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A gateway process over stdio, with an MCP client on it and its stderr kept. */
export interface GatewayProcess {
  client: Client;
  /** What the gateway wrote to stderr so far. */
  stderr(): string;
  /** Resolves when stderr matches. */
  waitForLog(pattern: RegExp, timeout?: number): Promise<void>;
  /** Closes the client, which ends the gateway (its stdin closes). */
  close(): Promise<void>;
}

/** Starts `tool-search-mcp ARGS` as its own process and connects an MCP client to it over stdio. */
export async function startGatewayProcess(
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): Promise<GatewayProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...BIN_ARGS, ...args],
    cwd: PACKAGE_ROOT,
    stderr: 'pipe',
    ...(options.env && { env: options.env }),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: 'gateway-process-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async waitForLog(pattern, timeout = 20_000) {
      const deadline = Date.now() + timeout;
      while (!pattern.test(stderr)) {
        if (Date.now() > deadline)
          throw new Error(
            `the gateway did not log ${pattern} within ${timeout} ms; it logged:\n${stderr}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => client.close(),
  };
}

/** Calls `check` until it returns true, every 50 ms, failing after `timeout` ms. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeout = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeout} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
