/**
 * Bounded resources of the MCP gateway, in one process, as figures (nothing is gated on them):
 * 1. 100,000 `tools/call` requests through one gateway (MCP clients over in-memory transports,
 *    10 sessions; `@modelcontextprotocol/server-everything` as the upstream over stdio): a mix of
 *    searches, loads, forwarded calls of a loaded tool and refused calls of tools never loaded,
 *    with the heap after GC sampled every 10,000 calls. A flat series means no growth.
 * 2. Sessions that disconnect: the heap after GC, the gateway's open sessions and the threads in
 *    its store with N sessions open (each with three tools loaded), then after they closed: over
 *    in-memory transports (the client closes), over Streamable HTTP (the client ends its session
 *    with DELETE), and over HTTP with clients that never end theirs (`maxSessions` bounds them).
 *
 * Usage: `pnpm bench:resources` (with the other resource scripts), or `node --expose-gc ...
 * src/resources-gateway.ts [--calls 100000] [--sessions 10000] [--http-sessions 1000]`.
 */
import { performance } from 'node:perf_hooks';
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createMemoryStore, type MemoryStore } from 'tool-search-core';
import {
  createToolSearchGateway,
  createUpstreamManager,
  DEFAULT_MAX_HTTP_SESSIONS,
  serveGatewayHttp,
  type ToolSearchGateway,
} from 'tool-search-mcp';
import { count, markdownTable, megabytes } from './format';
import { NPM_SERVERS } from './gateway-shared';
import { heapAfterGc, parseCount } from './resources-shared';

/** Sessions the calls part spreads its calls over. */
const CALL_SESSIONS = 10;
/** Heap samples over the calls part. */
const SAMPLES = 10;
/** Tools each session loads in the disconnect part. */
const TOOLS_PER_SESSION = 3;
/** Tools of server-everything the sessions load (their exposed names). */
const LOADABLE = ['everything__echo', 'everything__get-sum', 'everything__get-env'];
/** HTTP sessions opened and ended before the HTTP figures are taken. */
const HTTP_WARMUP_SESSIONS = 500;
/** Rounds of HTTP sessions: a leak would show as growth from one round to the next. */
const HTTP_ROUNDS = 3;
/** Longer than Node's HTTP keep-alive timeouts (client 4 s, server 5 s). */
const KEEP_ALIVE_WAIT_MS = 6_000;
/** Searches the calls part cycles through. */
const QUERIES = ['echo a message', 'add two numbers', 'environment variables', 'long operation'];

function createGateway(store: MemoryStore): ToolSearchGateway {
  return createToolSearchGateway({
    upstreams: createUpstreamManager({
      servers: { everything: { command: process.execPath, args: [NPM_SERVERS.everything] } },
      log: () => undefined,
    }),
    storage: store,
    log: () => undefined,
  });
}

async function connectInMemory(gateway: ToolSearchGateway): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = new Client({ name: 'resources-bench', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  await client.request({ method: 'tools/call', params: { name, arguments: args } });
}

async function callsPart(calls: number): Promise<string[][]> {
  const store = createMemoryStore({ ttl: 0 });
  const gateway = createGateway(store);
  await gateway.ready();
  const clients = await Promise.all(
    Array.from({ length: CALL_SESSIONS }, () => connectInMemory(gateway)),
  );
  for (const client of clients) await call(client, 'load_tool', { toolName: 'everything__echo' });
  const rows: string[][] = [];
  const every = Math.max(1, Math.floor(calls / SAMPLES));
  const started = performance.now();
  let forwarded = 0;
  rows.push(['0', megabytes(heapAfterGc()), '0', '0.0']);
  for (let index = 1; index <= calls; index++) {
    const client = clients[index % CALL_SESSIONS]!;
    // Four kinds of call in turn: a search, a load (of an already loaded tool, as models repeat
    // themselves), a forwarded call, and a call of a tool that was never loaded (refused).
    switch (index % 4) {
      case 0:
        await call(client, 'search_tools', { query: QUERIES[index % QUERIES.length] });
        break;
      case 1:
        await call(client, 'load_tool', { toolName: 'everything__echo' });
        break;
      case 2:
        await call(client, 'everything__echo', { message: `call ${index}` });
        forwarded++;
        break;
      default:
        await call(client, 'everything__get-sum', { a: 1, b: 2 });
    }
    if (index % every === 0)
      rows.push([
        count(index),
        megabytes(heapAfterGc()),
        count(forwarded),
        ((performance.now() - started) / 1000).toFixed(1),
      ]);
  }
  for (const client of clients) await client.close();
  await gateway.close();
  return rows;
}

/** Waits until the gateway has freed its closed sessions (closing is asynchronous), at most 10 s. */
async function settled(gateway: ToolSearchGateway, open: number): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (gateway.sessionCount > open && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

async function loadThree(client: Client): Promise<void> {
  await call(client, 'load_tool', { toolNames: LOADABLE.slice(0, TOOLS_PER_SESSION) });
}

interface DisconnectRow {
  label: string;
  opened: number;
  whileOpen: { sessions: number; threads: number; heap: number };
  afterClose: { sessions: number; threads: number; heap: number };
}

async function inMemorySessions(sessions: number): Promise<DisconnectRow> {
  const store = createMemoryStore({ ttl: 0, maxThreads: sessions * 2 });
  const gateway = createGateway(store);
  await gateway.ready();
  const before = heapAfterGc();
  const clients: Client[] = [];
  for (let index = 0; index < sessions; index++) {
    const client = await connectInMemory(gateway);
    await loadThree(client);
    clients.push(client);
  }
  const whileOpen = {
    sessions: gateway.sessionCount,
    threads: store.getStateStats().threadCount,
    heap: heapAfterGc() - before,
  };
  for (const client of clients.splice(0)) await client.close();
  await settled(gateway, 0);
  const afterClose = {
    sessions: gateway.sessionCount,
    threads: store.getStateStats().threadCount,
    heap: heapAfterGc() - before,
  };
  await gateway.close();
  return {
    label: 'in-memory, the client closes',
    opened: sessions,
    whileOpen,
    afterClose,
  };
}

/** Opens an HTTP session and loads three tools in it. */
async function openHttpSession(
  url: URL,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'resources-bench', version: '1.0.0' });
  await client.connect(transport);
  await loadThree(client);
  return { client, transport };
}

/**
 * HTTP sessions, in `rounds` rounds of `sessions` each. With `end`, each round's clients are all
 * open at once, then end their sessions with DELETE; without, each client goes away at once
 * without ending its session, and `maxSessions` closes the oldest. One row per round, all from one
 * baseline: a leak would grow round after round.
 */
async function httpSessions(
  sessions: number,
  options: { end: boolean; rounds: number },
): Promise<DisconnectRow[]> {
  const store = createMemoryStore({ ttl: 0, maxThreads: sessions * 2 });
  const gateway = createGateway(store);
  await gateway.ready();
  const http = await serveGatewayHttp(gateway, { port: 0 });
  // Warm-up: the first few hundred HTTP sessions leave compiled code and pooled sockets behind
  // (about 10 MB, then flat over thousands of sessions): measured from after them.
  for (let index = 0; index < HTTP_WARMUP_SESSIONS; index++) {
    const { client, transport } = await openHttpSession(http.url);
    await transport.terminateSession();
    await client.close();
  }
  await settled(gateway, 0);
  const before = heapAfterGc();
  const rows: DisconnectRow[] = [];
  const kept = options.end ? 0 : DEFAULT_MAX_HTTP_SESSIONS;
  for (let round = 1; round <= options.rounds; round++) {
    const open: Awaited<ReturnType<typeof openHttpSession>>[] = [];
    for (let index = 0; index < sessions; index++) {
      const session = await openHttpSession(http.url);
      if (options.end) open.push(session);
      // A client that never ends its session just goes away (its connection closes).
      else await session.client.close();
    }
    const whileOpen = {
      sessions: http.sessionCount,
      threads: store.getStateStats().threadCount,
      heap: heapAfterGc() - before,
    };
    for (const { client, transport } of open) {
      await transport.terminateSession();
      await client.close();
    }
    await settled(gateway, Math.min(kept, sessions * round));
    // Idle keep-alive sockets (the client's pool, the server's side of them) close after a few
    // seconds: what is left after that is what the gateway keeps.
    await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_WAIT_MS));
    rows.push({
      label: options.end
        ? `Streamable HTTP, the client ends its session (DELETE), round ${round}`
        : `Streamable HTTP, clients never end theirs (maxSessions ${count(DEFAULT_MAX_HTTP_SESSIONS)}), round ${round}`,
      opened: sessions,
      whileOpen,
      afterClose: {
        sessions: http.sessionCount,
        threads: store.getStateStats().threadCount,
        heap: heapAfterGc() - before,
      },
    });
  }
  await http.close();
  await gateway.close();
  return rows;
}

async function main(): Promise<void> {
  const calls = parseCount(process.argv, '--calls', 100_000);
  const sessions = parseCount(process.argv, '--sessions', 10_000);
  const httpCount = parseCount(process.argv, '--http-sessions', 1_000);
  console.log(`# Gateway resources in one process (Node ${process.version})\n`);
  console.log(
    `## ${count(calls)} tools/call requests over ${CALL_SESSIONS} sessions (search, load, forwarded call, refused call in turn): heap after GC\n`,
  );
  console.log(
    markdownTable(['calls', 'heap (MB)', 'forwarded upstream', 's'], await callsPart(calls)),
  );
  console.log(
    `\n## Sessions that disconnect (each loaded ${TOOLS_PER_SESSION} tools): open sessions, stored threads, heap growth after GC\n`,
  );
  const rows = [
    await inMemorySessions(sessions),
    ...(await httpSessions(httpCount, { end: true, rounds: HTTP_ROUNDS })),
    ...(await httpSessions(httpCount, { end: false, rounds: HTTP_ROUNDS })),
  ];
  console.log(
    markdownTable(
      [
        'sessions',
        'opened',
        'open / threads while open',
        'heap while open (MB)',
        'open / threads after',
        'heap after (MB)',
      ],
      rows.map((row) => [
        row.label,
        count(row.opened),
        `${count(row.whileOpen.sessions)} / ${count(row.whileOpen.threads)}`,
        megabytes(row.whileOpen.heap),
        `${count(row.afterClose.sessions)} / ${count(row.afterClose.threads)}`,
        megabytes(row.afterClose.heap),
      ]),
    ),
  );
}

await main();
