/**
 * The time a forwarded call adds: `tools/call` of `@modelcontextprotocol/server-everything`'s
 * `echo`, made directly on the server and through the built gateway, over stdio (client → server;
 * client → gateway → server, both hops stdio) and over Streamable HTTP on loopback (the server in
 * its HTTP mode; the gateway on `--port`, reaching the server by URL). Calls alternate in blocks
 * between the two paths, so machine noise hits both alike.
 *
 * Usage: `pnpm bench:gateway:forward [--calls 2000] [--warmup 200]`.
 */
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { markdownTable, ms } from './format';
import {
  connectStdio,
  GATEWAY_BIN,
  NPM_SERVERS,
  percentile,
  requireBuiltGateway,
  temporaryDir,
} from './gateway-shared';

/** Calls per block before switching paths. */
const BLOCK = 100;

function parseOptions(argv: readonly string[]): { calls: number; warmup: number } {
  const options = { calls: 2_000, warmup: 200 };
  for (let index = 0; index < argv.length; index += 2) {
    const value = Number(argv[index + 1]);
    if (argv[index] === '--calls') options.calls = value;
    else if (argv[index] === '--warmup') options.warmup = value;
    else throw new Error(`unknown flag ${argv[index]}`);
  }
  return options;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function echo(client: Client, name: string): Promise<number> {
  const began = performance.now();
  await client.request({ method: 'tools/call', params: { name, arguments: { message: 'ping' } } });
  return performance.now() - began;
}

/** Times `calls` calls on each path, alternating blocks, after `warmup` calls on each. */
async function compare(
  direct: Client,
  gateway: Client,
  options: { calls: number; warmup: number },
): Promise<{ direct: number[]; gateway: number[] }> {
  for (let index = 0; index < options.warmup; index++) {
    await echo(direct, 'echo');
    await echo(gateway, 'everything__echo');
  }
  const times = { direct: [] as number[], gateway: [] as number[] };
  while (times.direct.length < options.calls) {
    for (let index = 0; index < BLOCK; index++) times.direct.push(await echo(direct, 'echo'));
    for (let index = 0; index < BLOCK; index++)
      times.gateway.push(await echo(gateway, 'everything__echo'));
  }
  return times;
}

function row(label: string, times: { direct: number[]; gateway: number[] }): string[] {
  const [d50, g50] = [percentile(times.direct, 50), percentile(times.gateway, 50)];
  const [d90, g90] = [percentile(times.direct, 90), percentile(times.gateway, 90)];
  return [label, ms(d50), ms(g50), ms(g50 - d50), ms(d90), ms(g90), ms(g90 - d90)];
}

async function waitForLine(
  child: ReturnType<typeof spawn>,
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk) => {
      text += String(chunk);
      const match = text.match(pattern);
      if (match) resolve(match);
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} before printing ${pattern}: ${text}`)),
    );
  });
}

async function main(): Promise<void> {
  requireBuiltGateway();
  const options = parseOptions(process.argv.slice(2));
  const dir = await temporaryDir();
  const rows: string[][] = [];

  // stdio: client → everything; client → gateway → everything.
  const stdioConfig = path.join(dir, 'stdio.json');
  await writeFile(
    stdioConfig,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [NPM_SERVERS.everything] } },
    }),
  );
  const direct = await connectStdio(process.execPath, [NPM_SERVERS.everything]);
  const gateway = await connectStdio(process.execPath, [
    GATEWAY_BIN,
    '--config',
    stdioConfig,
    '--no-cache',
  ]);
  await gateway.client.request({
    method: 'tools/call',
    params: { name: 'load_tool', arguments: { toolName: 'everything__echo' } },
  });
  rows.push(row('stdio', await compare(direct.client, gateway.client, options)));
  await Promise.all([direct.client.close(), gateway.client.close()]);

  // Streamable HTTP on loopback: everything in its HTTP mode; the gateway on --port, upstream by URL.
  const upstreamPort = await freePort();
  const upstream = spawn(process.execPath, [NPM_SERVERS.everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(upstreamPort) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await waitForLine(upstream, /listening on port/);
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}/mcp`;
  const httpConfig = path.join(dir, 'http.json');
  await writeFile(httpConfig, JSON.stringify({ mcpServers: { everything: { url: upstreamUrl } } }));
  const gatewayProcess = spawn(
    process.execPath,
    [GATEWAY_BIN, '--config', httpConfig, '--no-cache', '--port', '0'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const [, gatewayUrl] = await waitForLine(gatewayProcess, /listening on (\S+)/);
  const directHttp = new Client({ name: 'gateway-bench', version: '1.0.0' });
  await directHttp.connect(new StreamableHTTPClientTransport(new URL(upstreamUrl)));
  const gatewayHttp = new Client({ name: 'gateway-bench', version: '1.0.0' });
  await gatewayHttp.connect(new StreamableHTTPClientTransport(new URL(gatewayUrl!)));
  await gatewayHttp.request({
    method: 'tools/call',
    params: { name: 'load_tool', arguments: { toolName: 'everything__echo' } },
  });
  rows.push(row('Streamable HTTP (loopback)', await compare(directHttp, gatewayHttp, options)));
  await Promise.all([directHttp.close(), gatewayHttp.close()]);
  gatewayProcess.kill();
  upstream.kill();
  await rm(dir, { recursive: true, force: true });

  console.log(
    `## Forwarded call: everything's echo, direct vs through the gateway (${options.calls} calls each, node ${process.version})\n`,
  );
  console.log(
    markdownTable(
      [
        'transport',
        'direct p50 ms',
        'gateway p50 ms',
        'added p50 ms',
        'direct p90 ms',
        'gateway p90 ms',
        'added p90 ms',
      ],
      rows,
    ),
  );
}

await main();
