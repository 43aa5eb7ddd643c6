/**
 * Protocol revision 2026-07-28 (`server/discover`, per-request messages, no sessions) served
 * beside the 2025 revisions, over HTTP and over stdio (the bin), with MCP SDK clients pinned to
 * it: the proxy tool list for every client, loaded tools kept under session handles that only the
 * gateway mints, and the HTTP guards on every request.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, listTools, temporaryDir, textOf } from '../test-utils/harness';
import { fixture, GATEWAY_BIN, PACKAGE_ROOT } from '../test-utils/servers';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { type GatewayHttpServer, serveGatewayHttp } from './serve-http';
import { SessionHandles } from './session-handles';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const TOKEN = 'a-long-random-token-for-the-modern-test';

type Output = Record<string, unknown> & { session?: string };
const outputOf = (result: { structuredContent?: unknown }) => result.structuredContent as Output;

describe('revision 2026-07-28 over HTTP', () => {
  let upstream: CountingUpstream;
  let gateway: ToolSearchGateway;
  let http: GatewayHttpServer;
  const clients: Client[] = [];

  beforeEach(async () => {
    upstream = await startCountingUpstream(['echo', 'send_email']);
    gateway = createToolSearchGateway({
      upstreams: createUpstreamManager({
        servers: { up: { url: upstream.url.href } },
        log: () => undefined,
      }),
      toolSearch: { enabled: true, unloadTool: true },
      log: () => undefined,
    });
    await gateway.ready();
    http = await serveGatewayHttp(gateway, { port: 0, token: TOKEN });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await http.close();
    await gateway.close();
    await upstream.close();
  });

  async function connect(options: { modern?: boolean } = {}): Promise<Client> {
    const client = new Client(
      { name: 'modern-test', version: '1.0.0' },
      options.modern === false ? {} : MODERN,
    );
    await client.connect(
      new StreamableHTTPClientTransport(http.url, {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it('lists the proxy tools, each stateful one taking the session handle', async () => {
    const client = await connect();
    expect(client.getProtocolEra()).toBe('modern');
    const tools = await listTools(client);
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
      'unload_tool',
    ]);
    for (const tool of tools) {
      const properties = Object.keys((tool.inputSchema.properties ?? {}) as object);
      expect(properties.includes('session')).toBe(tool.name !== 'search_tools');
    }
  });

  it('keeps loaded tools under the handle load_tool mints, and runs any allowed tool by its call', async () => {
    const client = await connect();
    const load = outputOf(await callTool(client, 'load_tool', { toolName: 'up__echo' }));
    expect(load).toMatchObject({ success: true, tools: [{ name: 'up__echo' }] });
    const session = load.session!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const ran = await callTool(client, 'call_tool', {
      session,
      name: 'up__echo',
      arguments: { a: 1 },
    });
    expect(JSON.parse(textOf(ran))).toEqual({ ran: 'echo', arguments: { a: 1 } });
    // Without a handle a call still runs the tool (loaded for that request alone); a made-up
    // handle runs nothing.
    const without = await callTool(client, 'call_tool', { name: 'up__echo', arguments: { b: 2 } });
    expect(JSON.parse(textOf(without))).toEqual({ ran: 'echo', arguments: { b: 2 } });
    const madeUp = await callTool(client, 'call_tool', {
      session: '00000000-0000-4000-8000-000000000000',
      name: 'up__echo',
      arguments: {},
    });
    expect(textOf(madeUp)).toMatch(/unknown or has expired/);
    // A second client's handle is its own thread: its loads are not the first one's.
    const second = await connect();
    const secondLoad = outputOf(
      await callTool(second, 'load_tool', { toolName: 'up__send_email' }),
    );
    expect(secondLoad.session).not.toBe(session);
    const loadedUnder = async (handle: string) =>
      ((await gateway.engine.store!.get(SessionHandles.threadOf(handle)))?.tools ?? []).map(
        (entry) => entry.id,
      );
    expect(await loadedUnder(session)).toEqual(['up__echo']);
    expect(await loadedUnder(secondLoad.session!)).toEqual(['up__send_email']);
    expect(upstream.executions).toEqual([
      { tool: 'echo', arguments: { a: 1 } },
      { tool: 'echo', arguments: { b: 2 } },
    ]);
  });

  it('refuses an HTTP session id as a handle: handles and sessions are apart', async () => {
    const legacyTransport = new StreamableHTTPClientTransport(http.url, {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    const legacy = new Client({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(legacyTransport);
    clients.push(legacy);
    expect(legacy.getProtocolEra()).toBe('legacy');
    await callTool(legacy, 'load_tool', { toolName: 'up__echo' });
    const modern = await connect();
    const result = await callTool(modern, 'call_tool', {
      session: legacyTransport.sessionId,
      name: 'up__echo',
      arguments: {},
    });
    expect(textOf(result)).toMatch(/unknown or has expired/);
    expect(upstream.executions).toEqual([]);
  });

  it('applies the token and the Origin check to revision 2026-07-28 requests', async () => {
    const discover = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const post = (headers: Record<string, string>) =>
      fetch(http.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          ...headers,
        },
        body: discover,
      });
    expect((await post({})).status).toBe(401);
    expect(
      (await post({ authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).status,
    ).toBe(403);
    // With the token and no foreign Origin, a pinned client is served (see the tests above).
    expect((await connect()).getProtocolEra()).toBe('modern');
  });
});

describe('revision 2026-07-28 over stdio (the bin)', () => {
  it('serves a pinned client on its connection, whose loads are its own', async () => {
    const temp = await temporaryDir();
    const config = join(temp.dir, 'gateway.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { up: fixture() }, toolSearch: { enabled: true } }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        '--conditions=tool-search-source',
        GATEWAY_BIN,
        '--config',
        config,
        '--no-cache',
      ],
      cwd: PACKAGE_ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-modern', version: '1.0.0' }, MODERN);
    try {
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern');
      expect((await listTools(client)).map((tool) => tool.name)).toEqual([
        'search_tools',
        'load_tool',
        'call_tool',
      ]);
      const load = outputOf(await callTool(client, 'load_tool', { toolName: 'up__echo' }));
      expect(load).toMatchObject({ success: true });
      expect(load.session).toBeUndefined();
      const ran = await callTool(client, 'call_tool', { name: 'up__echo', arguments: { b: 2 } });
      expect(textOf(ran)).toBe('{"b":2}');
    } finally {
      await client.close();
      await temp.remove();
    }
  }, 60_000);
});
