/**
 * Security of the gateway's HTTP mode, beyond what serve-http.test.ts checks at the door (a
 * foreign Origin or Host on a new session, a missing token on initialize, an unknown session id):
 * every method of a live session is guarded the same way, a session id that was ended or belongs
 * to no session here is refused, a refused request changes nothing, and nothing listens beyond
 * loopback unless a token is given.
 */
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMemoryStore, type MemoryStore } from 'tool-search-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, listToolNames } from '../test-utils/harness';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { type GatewayHttpServer, isLoopbackHost, serveGatewayHttp } from './serve-http';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

const TOKEN = 'a-long-random-token-for-the-test';

/** A raw request (node:http, so that Origin and Host can be anything): its status. */
function send(
  url: URL,
  method: 'GET' | 'POST' | 'DELETE',
  headers: Record<string, string | string[]>,
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        // A GET opens an event stream that stays open: the status is all this test needs.
        response.destroy();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
const loadSendEmail = JSON.stringify({
  jsonrpc: '2.0',
  id: 8,
  method: 'tools/call',
  params: { name: 'load_tool', arguments: { toolName: 'up__send_email' } },
});
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
});

describe('serveGatewayHttp security', () => {
  let upstream: CountingUpstream;
  let store: MemoryStore;
  let gateway: ToolSearchGateway;
  let http: GatewayHttpServer;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  /** The headers of the client's session, with the token. */
  let session: Record<string, string>;

  async function start(token: string | undefined): Promise<void> {
    upstream = await startCountingUpstream(['echo', 'send_email']);
    store = createMemoryStore({ ttl: 0 });
    gateway = createToolSearchGateway({
      toolSearch: { enabled: true, expose: 'tools' },
      upstreams: createUpstreamManager({
        servers: { up: { url: upstream.url.href } },
        log: () => undefined,
      }),
      storage: store,
      log: () => undefined,
    });
    await gateway.ready();
    http = await serveGatewayHttp(gateway, { port: 0, token });
    transport = new StreamableHTTPClientTransport(http.url, {
      ...(token && { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    });
    client = new Client({ name: 'owner', version: '1.0.0' });
    await client.connect(transport);
    await callTool(client, 'load_tool', { toolName: 'up__echo' });
    session = {
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18',
      ...(token && { authorization: `Bearer ${token}` }),
    };
  }

  /** What a refused request must leave as it was. */
  async function state() {
    return {
      sessions: http.sessionCount,
      gatewaySessions: gateway.sessionCount,
      listed: await listToolNames(client),
      stored: (await store.get(transport.sessionId!))?.tools.map((entry) => entry.id),
      threads: store.getStateStats().threadCount,
      executions: upstream.executions.length,
    };
  }

  afterEach(async () => {
    await client.close().catch(() => undefined);
    await http.close();
    await gateway.close();
    await upstream.close();
  });

  describe('with a token', () => {
    beforeEach(() => start(TOKEN));

    it.each([
      ['no Authorization', {}],
      ['a wrong token', { authorization: 'Bearer wrong' }],
      ['the token with a character more', { authorization: `Bearer ${TOKEN}x` }],
      ['the token as Basic credentials', { authorization: `Basic ${TOKEN}` }],
      ['the token without its scheme', { authorization: TOKEN }],
      ['an empty bearer', { authorization: 'Bearer ' }],
    ])(
      "refuses a live session's requests with %s (401), whatever the method",
      async (_label, auth) => {
        const before = await state();
        const { authorization: _token, ...withoutToken } = session;
        const headers = { ...withoutToken, ...auth };
        expect(await send(http.url, 'POST', headers, loadSendEmail)).toBe(401);
        expect(await send(http.url, 'GET', headers)).toBe(401);
        expect(await send(http.url, 'DELETE', headers)).toBe(401);
        expect(await send(http.url, 'POST', auth, initialize)).toBe(401);
        expect(await state()).toEqual(before);
      },
    );

    it('accepts the token with any case of "Bearer" and surrounding spaces', async () => {
      expect(
        await send(http.url, 'POST', { ...session, authorization: `bearer ${TOKEN}` }, toolsList),
      ).toBe(200);
      expect(
        await send(
          http.url,
          'POST',
          { ...session, authorization: `  BEARER   ${TOKEN}  ` },
          toolsList,
        ),
      ).toBe(200);
    });
  });

  describe('without a token (loopback)', () => {
    beforeEach(() => start(undefined));

    it.each([
      ['a foreign Origin', { origin: 'http://evil.example' }],
      ['an Origin that only starts like localhost', { origin: 'http://localhost.evil.example' }],
      ['the null Origin', { origin: 'null' }],
      ['a foreign Host (DNS rebinding)', { host: 'evil.example' }],
      ['a foreign Host on the loopback port', { host: 'evil.example:80' }],
    ])(
      "refuses a live session's requests with %s (403), whatever the method",
      async (_label, extra) => {
        const before = await state();
        const headers = { ...session, ...extra };
        expect(await send(http.url, 'POST', headers, loadSendEmail)).toBe(403);
        expect(await send(http.url, 'GET', headers)).toBe(403);
        expect(await send(http.url, 'DELETE', headers)).toBe(403);
        expect(await state()).toEqual(before);
        // The session itself is untouched: its owner goes on.
        expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'up__echo']);
      },
    );

    it('refuses a session id that was ended, for every method, and forgets its loads', async () => {
      const ended = { ...session };
      const other = new Client({ name: 'other', version: '1.0.0' });
      const otherTransport = new StreamableHTTPClientTransport(http.url);
      await other.connect(otherTransport);
      await callTool(other, 'load_tool', { toolName: 'up__send_email' });
      expect(await send(http.url, 'DELETE', ended)).toBe(200);
      expect(await send(http.url, 'POST', ended, toolsList)).toBe(404);
      expect(await send(http.url, 'GET', ended)).toBe(404);
      expect(await send(http.url, 'DELETE', ended)).toBe(404);
      expect(await store.get(ended['mcp-session-id']!)).toBeUndefined();
      // The other session keeps its own.
      expect(await listToolNames(other)).toEqual(['search_tools', 'load_tool', 'up__send_email']);
      expect(http.sessionCount).toBe(1);
      await other.close();
    });

    it.each([
      ['a made-up id', () => '00000000-0000-4000-8000-000000000000'],
      ['an id with the live id inside it', () => `x${session['mcp-session-id']}`],
      ['the live id in upper case', () => session['mcp-session-id']!.toUpperCase()],
      ['two ids at once', () => [session['mcp-session-id']!, session['mcp-session-id']!]],
      ['__proto__', () => '__proto__'],
      ['constructor', () => 'constructor'],
    ])('refuses %s as a session id (404) and changes nothing', async (_label, id) => {
      const before = await state();
      const headers = { ...session, 'mcp-session-id': id() };
      expect(await send(http.url, 'POST', headers, loadSendEmail)).toBe(404);
      expect(await send(http.url, 'DELETE', headers)).toBe(404);
      expect(await state()).toEqual(before);
    });

    it('refuses to initialize a session again, keeping its loads', async () => {
      const before = await state();
      expect(await send(http.url, 'POST', session, initialize)).toBe(400);
      expect(await state()).toEqual(before);
    });

    it("keeps each session's loads and calls to itself", async () => {
      const other = new Client({ name: 'other', version: '1.0.0' });
      await other.connect(new StreamableHTTPClientTransport(http.url));
      const refused = await callTool(other, 'up__echo', { from: 'other' });
      expect(refused.isError).toBe(true);
      expect(upstream.executions).toEqual([]);
      expect(await listToolNames(other)).toEqual(['search_tools', 'load_tool']);
      await other.close();
    });
  });
});

describe('serveGatewayHttp binding', () => {
  it.each([
    ['127.0.0.1', undefined, /^127\.0\.0\.1$/],
    ['::1', '::1', /^\[::1\]$/],
  ])('listens on %s by default or when asked for loopback', async (_label, host, pattern) => {
    const gateway = createToolSearchGateway({
      toolSearch: { enabled: true, expose: 'tools' },
      upstreams: createUpstreamManager({ servers: {}, log: () => undefined }),
      log: () => undefined,
    });
    const http = await serveGatewayHttp(gateway, { port: 0, ...(host && { host }) });
    try {
      expect(http.url.hostname).toMatch(pattern);
    } finally {
      await http.close();
      await gateway.close();
    }
  });

  it.each([
    '0.0.0.0',
    '::',
    '',
    '10.0.0.1',
    '127.0.0.1.nip.io',
    'localhost.example.com',
    '::ffff:127.0.0.1',
    '[::]',
  ])('refuses to listen on %j without a token, before binding', async (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    const gateway = createToolSearchGateway({
      toolSearch: { enabled: true, expose: 'tools' },
      upstreams: createUpstreamManager({ servers: {}, log: () => undefined }),
      log: () => undefined,
    });
    try {
      await expect(serveGatewayHttp(gateway, { port: 0, host })).rejects.toThrow(
        /needs a bearer token/,
      );
      await expect(serveGatewayHttp(gateway, { port: 0, host, token: '' })).rejects.toThrow(
        /needs a bearer token/,
      );
    } finally {
      await gateway.close();
    }
  });

  it.each(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])(
    'counts %j as loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
});

describe('serveGatewayHttp on loopback beyond 127.0.0.1, and bodies still on their way', () => {
  it('serves on 127.0.0.2 (all of 127.0.0.0/8 is loopback) and makes no session for a body that has not arrived', async () => {
    const upstream = await startCountingUpstream(['echo']);
    const gateway = createToolSearchGateway({
      toolSearch: { enabled: true, expose: 'tools' },
      upstreams: createUpstreamManager({
        servers: { up: { url: upstream.url.href } },
        log: () => undefined,
      }),
      log: () => undefined,
    });
    const http = await serveGatewayHttp(gateway, { port: 0, host: '127.0.0.2', maxSessions: 1 });
    const { createConnection } = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    try {
      expect(http.url.hostname).toBe('127.0.0.2');
      const client = new Client({ name: 'on-127-0-0-2', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(http.url));
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      // Ten initialize requests whose bodies never finish: no session, no server, nothing evicted.
      for (let index = 0; index < 10; index++) {
        const socket = createConnection({ host: '127.0.0.2', port: Number(http.url.port) });
        sockets.push(socket);
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.2:${http.url.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${initialize.length}\r\n\r\n${initialize.slice(0, 20)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(http.sessionCount).toBe(1);
      expect(gateway.sessionCount).toBe(1);
      // The first session was not closed to make room for them.
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      await client.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await http.close();
      await gateway.close();
      await upstream.close();
    }
  });
});
