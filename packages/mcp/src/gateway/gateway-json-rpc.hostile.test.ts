/**
 * Hostile input, table-driven, for the gateway's JSON-RPC over Streamable HTTP: raw request
 * bodies sent into an open session (one that has `up__echo` loaded), as any program on the port
 * could send them. Each row states its outcome (the HTTP status and the JSON-RPC error or result),
 * finishes within its stated time (the test's timeout: a hang guard, never a speed gate), and
 * leaves the gateway as it was: the same sessions, the same loaded tools, nothing run upstream
 * that the row does not name, the upstream still up.
 */
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMemoryStore, type MemoryStore } from 'tool-search-core';
import {
  LONE_SURROGATES,
  MANY_NAMES,
  ONE_MB,
  PROTOTYPE_NAMES,
  TEN_MB,
} from 'tool-search-testing/hostile-inputs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, listToolNames } from '../test-utils/harness';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { MAX_ARGUMENT_DEPTH } from './argument-depth';
import { type GatewayHttpServer, serveGatewayHttp } from './serve-http';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

/** Hang guards: most rows answer at once; rows that send or search megabytes get longer. */
const QUICK = 10_000;
const SLOW = 60_000;
/** The longest answer to a hostile request: nothing it sent is echoed back whole. */
const MAX_ANSWER = 4_000;

/** One JSON-RPC message of a response (a JSON body, or the `data:` lines of an event stream). */
interface Message {
  id?: unknown;
  result?: {
    content?: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  error?: { code: number; message: string };
}
interface Response {
  status: number;
  body: string;
  messages: Message[];
}

function post(url: URL, headers: Record<string, string>, body: string | Buffer): Promise<Response> {
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
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const texts = body.startsWith('{')
            ? [body]
            : body
                .split('\n')
                .filter((line) => line.startsWith('data: '))
                .map((line) => line.slice('data: '.length));
          const messages = texts.flatMap((text) => {
            try {
              return [JSON.parse(text) as Message];
            } catch {
              return [];
            }
          });
          resolve({ status: response.statusCode ?? 0, body, messages });
        });
      },
    );
    // The server may answer (413) and close before the whole body is sent.
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    request.end(body);
  });
}

const request = (method: string, params: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const call = (name: string, args?: unknown) =>
  request('tools/call', { name, ...(args !== undefined && { arguments: args }) });

/** How a row's response must look. */
type Expected =
  /** Refused by HTTP status, with this JSON-RPC error code in the body when there is one. */
  | { status: number; code?: number }
  /** A JSON-RPC error in a 200 answer. */
  | { rpcError: number }
  /** A tools/call result (isError or not), checked by the function. */
  | { result: (result: NonNullable<Message['result']>) => void };

interface Row {
  input: string;
  body: () => string | Buffer;
  expected: Expected;
  within?: number;
  /** Headers other than the session's (e.g. none, or another session id). */
  headers?: Record<string, string>;
  /** Upstream executions the row causes (a call of the loaded tool). */
  executes?: number;
}

const textOf = (result: NonNullable<Message['result']>) => result.content?.[0]?.text ?? '';
const notLoaded = (result: NonNullable<Message['result']>) => {
  expect(result.isError).toBe(true);
  // Under proxy an allowed tool runs by its call: a name that is none is not found.
  expect(textOf(result)).toMatch(/was not found/);
  expect(textOf(result).length).toBeLessThan(MAX_ANSWER);
};
const refusedLoad = (pattern?: RegExp) => (result: NonNullable<Message['result']>) => {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toMatchObject({ success: false });
  expect(result.structuredContent?.loaded ?? []).toEqual([]);
  if (pattern) expect(textOf(result)).toMatch(pattern);
  expect(textOf(result).length).toBeLessThan(MAX_ANSWER);
};
const searchAnswer = (result: NonNullable<Message['result']>) => {
  expect(result.isError ?? false).toBe(false);
  const { results } = result.structuredContent as { results: { name: string }[] };
  for (const hit of results) expect(hit.name).toMatch(/^up__(echo|send_email)$/);
  expect(textOf(result).length).toBeLessThan(MAX_ANSWER);
};

const ROWS: Row[] = [
  // Bodies that are not JSON-RPC at all: refused before any handler runs.
  ...(
    [
      ['malformed JSON (cut short)', '{"jsonrpc":"2.0","id":1,"method":"tools/list"'],
      ['text that is not JSON', 'hello'],
      ['an empty body', ''],
      ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ] as const
  ).map(
    ([input, body]): Row => ({ input, body: () => body, expected: { status: 400, code: -32700 } }),
  ),
  // JSON that is not JSON-RPC: JSON-RPC 2.0's Invalid Request (the body was read whole and parsed
  // before the SDK's transport saw it).
  ...(
    [
      ['an empty object', '{}'],
      ['a number', '42'],
      ['null', 'null'],
      ['a string', '"tools/list"'],
      ['an object as the id', '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}'],
      [
        'a JSON key __proto__ holding the method',
        '{"__proto__":{"method":"tools/list"},"jsonrpc":"2.0","id":1}',
      ],
    ] as const
  ).map(
    ([input, body]): Row => ({ input, body: () => body, expected: { status: 400, code: -32600 } }),
  ),
  {
    input: 'an empty batch',
    body: () => '[]',
    // JSON-RPC 2.0 answers an empty batch with one Invalid Request error.
    expected: { status: 400, code: -32600 },
  },
  {
    input: 'a batch of 1,000 requests',
    body: () =>
      JSON.stringify(
        Array.from({ length: 1_000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })),
      ),
    expected: { status: 400, code: -32600 },
  },
  // Well-formed requests with wrong types: refused by the SDK's validation.
  ...(
    [
      ['a number as the tool name', request('tools/call', { name: 42 })],
      ['an array as the arguments', call('up__echo', [1, 2])],
      ['a string as the arguments', call('up__echo', 'text')],
      [
        'the tool name under a JSON key __proto__',
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"name":"up__echo"}}}',
      ],
    ] as const
  ).map(([input, body]): Row => ({ input, body: () => body, expected: { rpcError: -32602 } })),
  {
    input: 'an unknown method',
    body: () => request('tools/destroy', {}),
    expected: { rpcError: -32601 },
  },
  {
    input: 'an unknown notification',
    body: () => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/whatever' }),
    expected: { status: 202 },
  },
  // Tool names: prototype members, empty and huge names are tools nobody loaded.
  ...[...PROTOTYPE_NAMES, '', 'up__', ONE_MB].map(
    (name): Row => ({
      input: `tools/call of ${name.length > 40 ? 'a 1 MB name' : JSON.stringify(name)}`,
      body: () => call(name, {}),
      expected: { result: notLoaded },
    }),
  ),
  {
    input: 'load_tool with toolName smuggled under JSON keys __proto__ and constructor',
    body: () =>
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"load_tool","arguments":' +
      '{"__proto__":{"toolName":"up__send_email"},"constructor":{"toolNames":["up__send_email"]}}}}',
    expected: { result: refusedLoad() },
  },
  ...PROTOTYPE_NAMES.map(
    (toolName): Row => ({
      input: `load_tool of "${toolName}"`,
      body: () => call('load_tool', { toolName }),
      expected: { result: refusedLoad() },
    }),
  ),
  {
    input: 'load_tool of a 1 MB name',
    body: () => call('load_tool', { toolName: ONE_MB }),
    expected: { result: refusedLoad() },
    within: SLOW,
  },
  {
    input: 'load_tool of 100,000 names',
    body: () => call('load_tool', { toolNames: MANY_NAMES }),
    expected: { result: refusedLoad(/at most 50/) },
    within: SLOW,
  },
  {
    input: 'unload_tool of 100,000 names',
    body: () => call('unload_tool', { toolNames: MANY_NAMES }),
    expected: {
      result: (result) => {
        expect(result.structuredContent).toMatchObject({ success: false, unloaded: [] });
        expect(textOf(result)).toMatch(/at most 50/);
      },
    },
    within: SLOW,
  },
  // Queries.
  ...(
    [
      ['a 1 MB query', ONE_MB],
      ['a query with lone surrogates', LONE_SURROGATES],
      ['a query of prototype names', PROTOTYPE_NAMES.join(' ')],
    ] as const
  ).map(
    ([input, query]): Row => ({
      input,
      body: () => call('search_tools', { query }),
      expected: { result: searchAnswer },
      within: SLOW,
    }),
  ),
  {
    input: 'a search limit of 10,000',
    body: () => call('search_tools', { query: 'echo', limit: 10_000 }),
    expected: {
      result: (result) => expect(result.structuredContent).toMatchObject({ results: [] }),
    },
  },
  // Oversized messages: refused by size, before they are parsed.
  {
    input: 'a 10 MB query (a 10 MB body)',
    body: () => call('search_tools', { query: TEN_MB }),
    expected: { status: 413, code: -32000 },
    within: SLOW,
  },
  {
    input: 'a valid request padded to 5 MB',
    body: () => `${' '.repeat(5 * 2 ** 20)}${request('tools/list', {})}`,
    expected: { status: 413, code: -32000 },
    within: SLOW,
  },
  // Arguments for the loaded tool.
  {
    input: `arguments nested 10,000 levels deep, to the loaded tool`,
    body: () =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"up__echo","arguments":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`,
    // Not sent: the upstream (shared by every session) is not stopped for a client's arguments.
    expected: {
      result: (result) => {
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(`nested more than ${MAX_ARGUMENT_DEPTH} levels deep`);
      },
    },
  },
  {
    input: 'arguments with JSON keys __proto__ and constructor, to the loaded tool',
    body: () =>
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"up__echo","arguments":' +
      '{"__proto__":{"polluted":true},"constructor":2,"city":"Paris"}}}',
    // Runs; the MCP SDK's validation of `arguments` drops the `__proto__` key before the gateway
    // sees it, so the upstream gets the other keys.
    expected: {
      result: (result) => {
        expect(result.isError ?? false).toBe(false);
        expect(JSON.parse(textOf(result))).toEqual({
          ran: 'echo',
          arguments: { constructor: 2, city: 'Paris' },
        });
      },
    },
    executes: 1,
  },
  // Sessions.
  {
    input: 'a request without a session id',
    body: () => request('tools/list', {}),
    headers: {},
    expected: { status: 400, code: -32000 },
  },
  {
    input: 'an unknown session id',
    body: () => request('tools/list', {}),
    headers: { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
    expected: { status: 404, code: -32001 },
  },
  {
    input: 'a 1 MB session id',
    body: () => request('tools/list', {}),
    headers: { 'mcp-session-id': 'x'.repeat(2 ** 20) },
    // Node refuses headers over 16 KiB before the gateway sees them.
    expected: { status: 431 },
  },
];

describe("the gateway's JSON-RPC over HTTP under hostile input", () => {
  let upstream: CountingUpstream;
  let store: MemoryStore;
  let gateway: ToolSearchGateway;
  let http: GatewayHttpServer;
  let client: Client;
  let session: Record<string, string>;
  let threadId: string;

  beforeAll(async () => {
    upstream = await startCountingUpstream(['echo', 'send_email']);
    store = createMemoryStore({ ttl: 0 });
    gateway = createToolSearchGateway({
      upstreams: createUpstreamManager({
        servers: { up: { url: upstream.url.href } },
        log: () => undefined,
      }),
      toolSearch: { enabled: true, unloadTool: true },
      storage: store,
      log: () => undefined,
    });
    await gateway.ready();
    http = await serveGatewayHttp(gateway, { port: 0 });
    const transport = new StreamableHTTPClientTransport(http.url);
    client = new Client({ name: 'hostile-test', version: '1.0.0' });
    await client.connect(transport);
    await callTool(client, 'load_tool', { toolName: 'up__echo' });
    threadId = transport.sessionId!;
    session = {
      'mcp-session-id': threadId,
      'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18',
    };
  });

  afterAll(async () => {
    await client.close();
    await http.close();
    await gateway.close();
    await upstream.close();
  });

  /** What "unchanged" compares: sessions, the session's tools, its stored loads, the upstream. */
  async function snapshot() {
    return {
      gatewaySessions: gateway.sessionCount,
      httpSessions: http.sessionCount,
      listed: await listToolNames(client),
      stored: (await store.get(threadId))?.tools.map((entry) => entry.id),
      threads: store.getStateStats().threadCount,
      executions: upstream.executions.length,
      upstream: gateway.upstreams.states().map((state) => state.status),
    };
  }

  for (const row of ROWS) {
    it(
      `answers ${row.input}`,
      async () => {
        const before = await snapshot();
        const response = await post(http.url, row.headers ?? session, row.body());
        const { expected } = row;
        if ('status' in expected) {
          expect(response.status).toBe(expected.status);
          if (expected.code !== undefined)
            expect(response.messages[0]?.error?.code).toBe(expected.code);
        } else {
          expect(response.status).toBe(200);
          const [message] = response.messages;
          if ('rpcError' in expected) expect(message?.error?.code).toBe(expected.rpcError);
          else {
            expect(message?.result).toBeDefined();
            expected.result(message!.result!);
          }
        }
        expect(response.body.length).toBeLessThan(MAX_ANSWER);
        expect(await snapshot()).toEqual({
          ...before,
          executions: before.executions + (row.executes ?? 0),
        });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      },
      row.within ?? QUICK,
    );
  }
});
