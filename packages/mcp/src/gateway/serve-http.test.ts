import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listToolNames } from '../test-utils/harness';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { type GatewayHttpServer, serveGatewayHttp } from './serve-http';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

/** A raw HTTP POST (node:http, so that Host can be set), answering status and session header. */
function post(
  url: URL,
  headers: Record<string, string>,
  body = INITIALIZE,
): Promise<{ status: number; sessionId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        const sessionId = response.headers['mcp-session-id'];
        resolve({
          status: response.statusCode ?? 0,
          sessionId: typeof sessionId === 'string' ? sessionId : undefined,
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function createGateway(): ToolSearchGateway {
  return createToolSearchGateway({
    toolSearch: { enabled: true, expose: 'tools' },
    upstreams: createUpstreamManager({ servers: {}, log: () => undefined }),
    log: () => undefined,
  });
}

describe('serveGatewayHttp', () => {
  let gateway: ToolSearchGateway;
  let http: GatewayHttpServer;

  beforeAll(async () => {
    gateway = createGateway();
    http = await serveGatewayHttp(gateway, { port: 0, allowedOrigins: ['app.example.com'] });
  });

  afterAll(async () => {
    await http.close();
    await gateway.close();
  });

  it('serves MCP at http://127.0.0.1:<port>/mcp', async () => {
    expect(http.url.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(http.url));
    expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
    await client.close();
  });

  it('serves a client that negotiates the protocol era on revision 2026-07-28, with the proxy tools', async () => {
    const client = new Client(
      { name: 't', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(http.url));
    expect(client.getProtocolEra()).toBe('modern');
    expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'call_tool']);
    await client.close();
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding) before any session exists', async () => {
    const sessions = http.sessionCount;
    expect((await post(http.url, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(http.url, { host: 'evil.example' })).status).toBe(403);
    expect(http.sessionCount).toBe(sessions);
    const local = await post(http.url, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(local.sessionId).toBeDefined();
    expect((await post(http.url, { origin: 'https://app.example.com' })).status).toBe(200);
  });

  it('answers an unknown session with 404, a request without one with 400, another path with 404', async () => {
    expect((await post(http.url, { 'mcp-session-id': 'no-such-session' })).status).toBe(404);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    expect((await post(http.url, {}, ping)).status).toBe(400);
    expect((await post(new URL('/other', http.url), {})).status).toBe(404);
  });
});

describe('serveGatewayHttp with maxSessions', () => {
  it('closes the least recently used session past the limit', async () => {
    const gateway = createGateway();
    const http = await serveGatewayHttp(gateway, { port: 0, maxSessions: 2 });
    try {
      const first = await post(http.url, {});
      const second = await post(http.url, {});
      const ping = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // Using the first session makes the second the least recently used one.
      expect((await post(http.url, { 'mcp-session-id': first.sessionId! }, ping)).status).toBe(202);
      await post(http.url, {});
      expect(http.sessionCount).toBe(2);
      expect((await post(http.url, { 'mcp-session-id': second.sessionId! }, ping)).status).toBe(
        404,
      );
      expect((await post(http.url, { 'mcp-session-id': first.sessionId! }, ping)).status).toBe(202);
    } finally {
      await http.close();
      await gateway.close();
    }
  });
});

describe('serveGatewayHttp with a bearer token', () => {
  it('requires the token on every request', async () => {
    const gateway = createGateway();
    const http = await serveGatewayHttp(gateway, { port: 0, token: 's3cret-token' });
    try {
      expect((await post(http.url, {})).status).toBe(401);
      expect((await post(http.url, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post(http.url, { authorization: 'Bearer s3cret-token' })).status).toBe(200);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(http.url, {
          requestInit: { headers: { Authorization: 'Bearer s3cret-token' } },
        }),
      );
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      await client.close();
    } finally {
      await http.close();
      await gateway.close();
    }
  });

  it('refuses to listen beyond loopback without a token', async () => {
    const gateway = createGateway();
    try {
      await expect(serveGatewayHttp(gateway, { port: 0, host: '0.0.0.0' })).rejects.toThrow(
        /needs a bearer token/,
      );
    } finally {
      await gateway.close();
    }
  });
});
