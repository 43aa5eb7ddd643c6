/**
 * Requests of protocol revision 2026-07-28 without a session handle, by the thousand, over real
 * HTTP: they keep no state past their answer, so they never fill the store's room for threads
 * and never push out a session's loaded tools, in memory or on Redis.
 */
import { Agent, request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { createMemoryStore, type LoadedToolsStore } from 'tool-search-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, textOf } from '../test-utils/harness';
import { redisPort } from '../test-utils/redis';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { openGatewayStorage } from './gateway-storage';
import { serveGatewayHttp } from './serve-http';
import { createToolSearchGateway } from './tool-search-gateway';

/** Twice the memory store's default room for threads (10,000), which each request once took. */
const ANONYMOUS_REQUESTS = 20_000;
/** Requests in flight at once: enough to overlap, few enough for a busy 2-core machine. */
const IN_FLIGHT = 16;
/**
 * A hang guard, not a timing: 20,000 requests took 30 s on a busy 2-core machine and 134 s with a
 * CPU hog on its other core (the MCP SDK's per-request work); room for a second suite beside it.
 */
const FLOOD_TIMEOUT = 600_000;
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
const PINNED = 'up__status';

/**
 * What a client without a handle may send, each kind once in turn: every meta-tool (loads of
 * names that are no tool, unloads and calls of tools it never loaded), a call of the pinned tool
 * (which touches its recency under `maxLoadedTools`) and a listing.
 */
const ANONYMOUS_REQUESTS_KINDS: readonly AnonymousRequest[] = (
  [
    ['search_tools', { query: 'send an email' }],
    ['unload_tool', { toolNames: ['up__send_email', 'up__echo'] }],
    ['call_tool', { name: 'up__send_email', arguments: {} }],
    ['call_tool', { name: PINNED, arguments: {} }],
    ['load_tool', { toolName: 'up__no_such_tool' }],
    ['load_tool', { toolNames: [] }],
    ['tools/list', undefined],
  ] as const
).map(([name, args], position) =>
  name === 'tools/list'
    ? {
        headers: { 'mcp-method': 'tools/list' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: position,
          method: 'tools/list',
          params: { _meta: modernMeta() },
        }),
      }
    : {
        headers: { 'mcp-method': 'tools/call', 'mcp-name': name },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: position,
          method: 'tools/call',
          params: { name, arguments: args, _meta: modernMeta() },
        }),
      },
);

/** One raw request: its body and the headers revision 2026-07-28 wants to agree with it. */
interface AnonymousRequest {
  headers: Record<string, string>;
  body: string;
}

function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'anonymous', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** One raw POST of a 2026-07-28 request, answering the status and the body. */
function post(
  url: URL,
  { headers, body }: AnonymousRequest,
  agent: Agent,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Sends `count` anonymous requests, `IN_FLIGHT` at a time; answers how many got a JSON-RPC result. */
async function flood(url: URL, count: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  let next = 0;
  let answered = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const request = ANONYMOUS_REQUESTS_KINDS[next++ % ANONYMOUS_REQUESTS_KINDS.length]!;
      const { status, text } = await post(url, request, agent);
      if (status === 200 && text.includes('"result"')) answered++;
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    agent.destroy();
  }
  return answered;
}

/** Everything a test opened, closed after it whatever happened. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/**
 * A gateway over HTTP on `storage`, an HTTP session (2025 revision) that loaded `up__echo` and a
 * 2026-07-28 client whose handle loaded `up__send_email`.
 */
async function startWithSessions(storage: LoadedToolsStore, options: { maxHandles?: number } = {}) {
  const upstream: CountingUpstream = await startCountingUpstream(['echo', 'send_email', 'status']);
  cleanups.push(() => upstream.close());
  const logs: string[] = [];
  const gateway = createToolSearchGateway({
    upstreams: createUpstreamManager({
      servers: { up: { url: upstream.url.href } },
      log: () => undefined,
    }),
    toolSearch: { unloadTool: true, alwaysLoaded: [PINNED], maxLoadedTools: 5 },
    storage,
    ...options,
    log: (message) => logs.push(message),
  });
  cleanups.push(() => gateway.close());
  await gateway.ready();
  const http = await serveGatewayHttp(gateway, { port: 0 });
  cleanups.push(() => http.close());

  const legacy = new Client({ name: 'legacy', version: '1.0.0' });
  await legacy.connect(new StreamableHTTPClientTransport(http.url));
  cleanups.push(() => legacy.close());
  expect(await callTool(legacy, 'load_tool', { toolName: 'up__echo' })).not.toHaveProperty(
    'isError',
  );
  const modern = new Client({ name: 'modern', version: '1.0.0' }, MODERN);
  await modern.connect(new StreamableHTTPClientTransport(http.url));
  cleanups.push(() => modern.close());
  const loaded = await callTool(modern, 'load_tool', { toolName: 'up__send_email' });
  const session = (loaded.structuredContent as { session: string }).session;
  expect(session).toMatch(/^[0-9a-f-]{36}$/);

  /** Both sessions still hold, and run, what they loaded. */
  const expectSessionsIntact = async (): Promise<void> => {
    expect(textOf(await callTool(legacy, 'call_tool', { name: 'up__echo', arguments: {} }))).toBe(
      '{"ran":"echo","arguments":{}}',
    );
    const ran = await callTool(modern, 'call_tool', {
      session,
      name: 'up__send_email',
      arguments: { to: 'a' },
    });
    expect(textOf(ran)).toBe('{"ran":"send_email","arguments":{"to":"a"}}');
  };
  return { gateway, http, upstream, logs, expectSessionsIntact };
}

describe('2026-07-28 requests without a session handle', () => {
  it(
    'leave no thread in the memory store, and evict no session, after 20,000 of them',
    async () => {
      // The gateway's own store: no expiry, room for 10,000 threads.
      const store = createMemoryStore({ ttl: 0 });
      cleanups.push(async () => store.dispose());
      const { gateway, http, upstream, logs, expectSessionsIntact } =
        await startWithSessions(store);
      await expectSessionsIntact();
      const threads = store.getStateStats().threadCount;
      expect(threads).toBe(2);
      upstream.reset();

      expect(await flood(http.url, ANONYMOUS_REQUESTS)).toBe(ANONYMOUS_REQUESTS);

      expect(store.getStateStats().threadCount).toBe(threads);
      expect(gateway.handles.size).toBe(1);
      // Their calls ran, once each (the pinned tool, and send_email loaded for its call alone),
      // and loaded nothing anyone keeps.
      const callsOfEach = ANONYMOUS_REQUESTS / ANONYMOUS_REQUESTS_KINDS.length;
      expect(upstream.executions).toHaveLength(2 * Math.floor(callsOfEach));
      expect(new Set(upstream.executions.map((execution) => execution.tool))).toEqual(
        new Set(['status', 'send_email']),
      );
      await expectSessionsIntact();
      expect(logs.filter((line) => /error|fail/i.test(line))).toEqual([]);
    },
    FLOOD_TIMEOUT,
  );

  it('start no session with a load that loads nothing, so they push no handle out', async () => {
    const store = createMemoryStore({ ttl: 0 });
    cleanups.push(async () => store.dispose());
    // Room for one handle only: the one the 2026-07-28 client holds.
    const { gateway, http, expectSessionsIntact } = await startWithSessions(store, {
      maxHandles: 1,
    });
    const agent = new Agent({ keepAlive: true });
    cleanups.push(async () => agent.destroy());
    const loads = ANONYMOUS_REQUESTS_KINDS.filter((request) => request.body.includes('load_tool'));
    for (let round = 0; round < 10; round++) {
      for (const request of loads) {
        const { text } = await post(http.url, request, agent);
        expect(text).toMatch(/"isError":true/);
        expect(text).not.toMatch(/"session"/);
      }
    }
    expect(gateway.handles.size).toBe(1);
    expect(store.getStateStats().threadCount).toBe(2);
    await expectSessionsIntact();
  });

  it.skipIf(redisPort() === 0)(
    'write nothing to Redis and evict no session, after 20,000 of them',
    async () => {
      const keyPrefix = `anonymous-${process.pid}-${Date.now()}:`;
      const storage = await openGatewayStorage(
        { type: 'redis', url: `redis://127.0.0.1:${redisPort()}`, keyPrefix },
        { log: () => undefined },
      );
      cleanups.push(() => storage.close());
      const admin = new Redis({ port: redisPort(), host: '127.0.0.1' });
      cleanups.push(async () => admin.disconnect());
      const { gateway, http, expectSessionsIntact } = await startWithSessions(storage.store);
      await expectSessionsIntact();
      const keys = await admin.keys(`${keyPrefix}*`);
      expect(keys).toHaveLength(2);
      const before = await Promise.all(keys.map((key) => admin.get(key)));

      const watcher = new Redis({ port: redisPort(), host: '127.0.0.1' });
      cleanups.push(async () => watcher.disconnect());
      const monitor = await watcher.monitor();
      cleanups.push(async () => monitor.disconnect());
      let commands = 0;
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args.some((arg) => arg.startsWith(keyPrefix))) commands++;
      });

      expect(await flood(http.url, ANONYMOUS_REQUESTS)).toBe(ANONYMOUS_REQUESTS);

      // MONITOR reports in order: once this marker is back, every command before it was counted.
      const marker = `marker-${Date.now()}`;
      const seen = new Promise<void>((resolve) =>
        monitor.on('monitor', (_time: string, args: string[]) => {
          if (args[1] === marker) resolve();
        }),
      );
      await watcher.echo(marker);
      await seen;
      expect(commands).toBe(0);
      expect((await admin.keys(`${keyPrefix}*`)).sort()).toEqual([...keys].sort());
      expect(await Promise.all(keys.map((key) => admin.get(key)))).toEqual(before);
      expect(gateway.handles.size).toBe(1);
      await expectSessionsIntact();
    },
    FLOOD_TIMEOUT,
  );
});
