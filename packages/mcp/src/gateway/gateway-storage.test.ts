import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import type { GatewayConfig } from '../config/gateway-config';
import { callTool, listToolNames, temporaryDir, textOf } from '../test-utils/harness';
import { redisPort } from '../test-utils/redis';
import { fixture } from '../test-utils/servers';
import { createGatewayFromConfig } from './create-gateway-from-config';
import { type GatewayStorage, openGatewayStorage } from './gateway-storage';
import { type GatewayHttpServer, serveGatewayHttp } from './serve-http';
import type { ToolSearchGateway } from './tool-search-gateway';

const port = redisPort();
/** Everything a test opened, closed after it whatever happened. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** One gateway instance over HTTP with its own Redis connection, as a separate server would run. */
async function startInstance(config: GatewayConfig): Promise<{
  gateway: ToolSearchGateway;
  http: GatewayHttpServer;
  logs: string[];
}> {
  const logs: string[] = [];
  const log = (message: string) => {
    logs.push(message);
  };
  const storage: GatewayStorage = await openGatewayStorage(config.storage!, { log });
  const gateway = createGatewayFromConfig(config, { storage: storage.store, cache: false, log });
  await gateway.ready();
  const http = await serveGatewayHttp(gateway, { port: 0 });
  cleanups.push(async () => {
    await http.close();
    await gateway.close();
    await storage.close();
  });
  return { gateway, http, logs };
}

async function connectHttp(url: URL): Promise<{ client: Client; sessionId: string }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, sessionId: transport.sessionId! };
}

/** A POST of `tools/list` with a session id, answering the HTTP status. */
function postWithSession(url: URL, sessionId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-06-18',
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
  });
}

function redisConfig(extra: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    mcpServers: { fixture: fixture() },
    toolSearch: { enabled: true, unloadTool: true, expose: 'tools' },
    storage: {
      type: 'redis',
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: `gateway-test-${randomUUID()}:`,
    },
    ...extra,
  };
}

describe.skipIf(port === 0)('"storage": { "type": "redis" } (a real redis-server)', () => {
  it("shares a session's loaded tools between two gateway instances, keyed by the MCP session id", async () => {
    const config = redisConfig();
    const a = await startInstance(config);
    const b = await startInstance(config);
    const { client: onA, sessionId } = await connectHttp(a.http.url);

    const loaded = await callTool(onA, 'load_tool', { toolName: 'fixture__echo' });
    expect(loaded.structuredContent).toMatchObject({ success: true });
    expect(await listToolNames(onA)).toContain('fixture__echo');

    // Redis holds it under the session id: `<keyPrefix>{<session id>}:tools`.
    const redis = new Redis(port, { lazyConnect: true });
    cleanups.push(() => redis.quit());
    const raw = await redis.get(`${config.storage!.keyPrefix}{${sessionId}}:tools`);
    expect((JSON.parse(raw!) as [string, number][]).map(([id]) => id)).toEqual(['fixture__echo']);

    // Instance B serving the same session id (its thread) lists and forwards the tool loaded on A.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await b.gateway.connect(serverSide, { threadId: sessionId });
    const onB = new Client({ name: 'test-client', version: '1.0.0' });
    await onB.connect(clientSide);
    cleanups.push(() => onB.close());
    expect(await listToolNames(onB)).toEqual([
      'search_tools',
      'load_tool',
      'unload_tool',
      'fixture__echo',
    ]);
    const echoed = await callTool(onB, 'fixture__echo', { text: 'from B' });
    expect(echoed.isError).toBeFalsy();
    expect(textOf(echoed)).toContain('from B');

    // An unload on B is seen on A: one state, in Redis.
    const unloaded = await callTool(onB, 'unload_tool', { toolNames: ['fixture__echo'] });
    expect(unloaded.structuredContent).toMatchObject({
      success: true,
      unloaded: ['fixture__echo'],
    });
    expect(await listToolNames(onA)).not.toContain('fixture__echo');

    // Another session, on either instance, has its own thread.
    await callTool(onA, 'load_tool', { toolName: 'fixture__fail' });
    const { client: elsewhere } = await connectHttp(b.http.url);
    expect(await listToolNames(elsewhere)).toEqual(['search_tools', 'load_tool', 'unload_tool']);

    // The MCP SDK binds an HTTP session to the instance that created it: B answers A's id with 404.
    expect(await postWithSession(b.http.url, sessionId)).toBe(404);
  });

  it('answers load_tool without the tool and logs the failure when Redis is unreachable', async () => {
    const closed = redisConfig();
    closed.storage = { ...closed.storage!, url: 'redis://127.0.0.1:1', timeout: 300 };
    const instance = await startInstance(closed);
    const { client } = await connectHttp(instance.http.url);
    const loaded = await callTool(client, 'load_tool', { toolName: 'fixture__echo' });
    expect(loaded.structuredContent).toMatchObject({ success: false });
    expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'unload_tool']);
    expect(instance.logs.some((line) => line.startsWith('storage: Redis at 127.0.0.1:1: '))).toBe(
      true,
    );
    expect(instance.logs.some((line) => /failed: /.test(line))).toBe(true);
  });

  it('is opened and closed by the tool-search-mcp command', async () => {
    const temp = await temporaryDir();
    cleanups.push(temp.remove);
    const file = `${temp.dir}/gateway.json`;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify(redisConfig()));
    let logged = '';
    const stderr = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    const stop = new AbortController();
    const running = main(['--config', file, '--port', '0', '--no-cache'], {
      stderr,
      signal: stop.signal,
    });
    await expect
      .poll(() => logged, { timeout: 20_000 })
      .toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    await expect
      .poll(() => logged, { timeout: 20_000 })
      .toContain(`storage: Redis at 127.0.0.1:${port} is ready`);
    stop.abort();
    expect(await running).toBe(0);
  });
});

describe('openGatewayStorage', () => {
  it('says which packages to install when ioredis or tool-search-redis is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'ioredis'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(
      openGatewayStorage(
        { type: 'redis', url: 'redis://127.0.0.1:6379' },
        { importModule: (name) => (name === 'ioredis' ? Promise.reject(missing) : import(name)) },
      ),
    ).rejects.toThrow(
      /^"storage": \{ "type": "redis" \} needs the packages ioredis and tool-search-redis beside tool-search-mcp \(npm install ioredis tool-search-redis\): Cannot find package 'ioredis'$/,
    );
  });
});

describe('createGatewayFromConfig with storage', () => {
  it('refuses a config with storage but no store, rather than keep loads in memory', () => {
    expect(() =>
      createGatewayFromConfig(
        { mcpServers: {}, storage: { type: 'redis', url: 'redis://127.0.0.1:6379' } },
        { cache: false, log: () => undefined },
      ),
    ).toThrow(/openGatewayStorage/);
  });
});
