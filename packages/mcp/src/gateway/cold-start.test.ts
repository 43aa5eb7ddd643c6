/**
 * The gateway at 70 stdio upstreams (one small fixture server started 70 times), as a new user
 * with a public benchmark's servers runs it: searches sent right after a cold start rank exactly
 * as the library ranks the catalog they searched, and name the servers not searchable yet; every
 * upstream starts within its timeout (starts are bounded in parallel); the cache is complete
 * afterwards; and a warm start answers the same searches without starting any upstream.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { type ToolDescriptor, ToolIndex } from 'tool-search-core';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, temporaryDir } from '../test-utils/harness';
import { TINY_SERVER } from '../test-utils/servers';
import { createManifestCache } from '../upstream/manifest-cache';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

const SERVERS = 70;
const TOOLS_PER_SERVER = 4;
const TOP_K = 5;
/** Milliseconds between searches during the cold start. */
const SEARCH_INTERVAL = 20;

const VERBS = ['create', 'delete', 'list', 'update', 'search', 'export', 'archive', 'sync'];
const OBJECTS = [
  'invoice',
  'ticket',
  'calendar event',
  'repository',
  'customer',
  'playlist',
  'shipment',
  'report',
  'message',
  'sensor reading',
];
const DOMAINS = [
  'billing',
  'helpdesk',
  'scheduling',
  'source control',
  'crm',
  'music',
  'logistics',
  'analytics',
  'chat',
  'telemetry',
];

/** A catalog like a benchmark's: each server one domain, each tool a verb on an object. */
function catalog(): Map<
  string,
  { name: string; description: string; inputSchema: Record<string, unknown> }[]
> {
  const servers = new Map<
    string,
    { name: string; description: string; inputSchema: Record<string, unknown> }[]
  >();
  for (let server = 0; server < SERVERS; server++) {
    const domain = DOMAINS[server % DOMAINS.length]!;
    const tools = Array.from({ length: TOOLS_PER_SERVER }, (_, index) => {
      const verb = VERBS[(server + index) % VERBS.length]!;
      const object = OBJECTS[(server * 3 + index) % OBJECTS.length]!;
      return {
        name: `${verb}_${object.replace(/ /g, '_')}`,
        description: `${verb} a ${object} in the ${domain} system of tenant ${server}`,
        inputSchema: {
          type: 'object',
          properties: {
            [`${object.replace(/ /g, '_')}_id`]: { type: 'string', description: `the ${object}` },
          },
        },
      };
    });
    servers.set(`svc${server}`, tools);
  }
  return servers;
}

const QUERIES = [
  'create an invoice for billing',
  'delete a helpdesk ticket',
  'list calendar events',
  'search the repository',
  'export the analytics report',
  'archive old chat messages',
  'sync sensor readings from telemetry',
  'update a customer in the crm',
  'find a playlist',
  'track a logistics shipment',
];

/** A stdio upstream entry that runs the tiny server with flags. */
function tiny(args: string[]) {
  return { command: process.execPath, args: [TINY_SERVER, ...args] };
}

interface Hit {
  name: string;
  score: number;
}

/** What the library ranks over the servers a search covered. */
function libraryRanking(
  servers: ReturnType<typeof catalog>,
  covered: (server: string) => boolean,
  query: string,
): Hit[] {
  const descriptors: ToolDescriptor[] = [];
  for (const [server, tools] of servers) {
    if (!covered(server)) continue;
    for (const tool of tools)
      descriptors.push({
        id: `${server}__${tool.name}`,
        description: tool.description,
        inputSchema: tool.inputSchema,
      });
  }
  return new ToolIndex(descriptors)
    .search(query, { topK: TOP_K })
    .map(({ id, score }) => ({ name: id, score }));
}

async function search(client: Client, query: string) {
  const result = await callTool(client, 'search_tools', { query });
  const output = result.structuredContent as {
    results: (Hit & { description: string })[];
    notSearchable?: string[];
    message: string;
  };
  return { ...output, results: output.results.map(({ name, score }) => ({ name, score })) };
}

function expectSameRanking(actual: Hit[], expected: Hit[]): void {
  // search_tools shows scores to two decimals, as the core's meta-tool rounds them.
  expect(actual).toEqual(
    expected.map(({ name, score }) => ({ name, score: Math.round(score * 100) / 100 })),
  );
}

describe('the gateway at 70 stdio upstreams', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startGateway(options: { cacheDir: string; toolsDir: string; startsFile: string }) {
    const servers = Object.fromEntries(
      [...catalog().keys()].map((server) => [
        server,
        tiny([
          '--tools-json',
          join(options.toolsDir, `${server}.json`),
          '--starts',
          options.startsFile,
        ]),
      ]),
    );
    const logs: string[] = [];
    const gateway: ToolSearchGateway = createToolSearchGateway({
      upstreams: createUpstreamManager({
        servers,
        cache: createManifestCache(options.cacheDir),
        log: (line) => logs.push(line),
      }),
      toolSearch: { enabled: true, topK: TOP_K },
      // Searches answer at once from what has started: this test checks what they say meanwhile.
      startWait: 0,
      log: (line) => logs.push(line),
    });
    const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(gatewaySide);
    const client = new Client({ name: 'cold-start-test', version: '1.0.0' });
    await client.connect(clientSide);
    cleanups.push(
      () => gateway.close(),
      () => client.close(),
    );
    return { gateway, client, logs };
  }

  it('ranks searches during and after a cold start as the library does over what they searched, then starts nothing when warm', async () => {
    const servers = catalog();
    const { dir, remove } = await temporaryDir();
    cleanups.push(remove);
    const toolsDir = join(dir, 'tools');
    const cacheDir = join(dir, 'cache');
    const startsFile = join(dir, 'starts.txt');
    await writeFile(startsFile, '');
    await mkdir(toolsDir);
    for (const [server, tools] of servers)
      await writeFile(join(toolsDir, `${server}.json`), JSON.stringify(tools));

    const cold = await startGateway({ cacheDir, toolsDir, startsFile });
    let partial = 0;
    let whole = 0;
    // Search over and over while the upstreams start: each answer ranks the catalog it searched
    // exactly as the library does, and names every server it did not search.
    for (let round = 0; whole < QUERIES.length; round++) {
      const query = QUERIES[round % QUERIES.length]!;
      // A pause between searches: the in-memory transport answers within one turn of the event
      // loop, and the upstreams' pipes need turns of their own.
      await sleep(SEARCH_INTERVAL);
      const answer = await search(cold.client, query);
      const missing = new Set(answer.notSearchable ?? []);
      if (missing.size > 0) {
        partial++;
        expect(answer.message).toContain('still starting');
        for (const server of missing) expect(answer.message).toContain(server);
      } else if (cold.gateway.upstreams.settled) whole++;
      expectSameRanking(
        answer.results,
        libraryRanking(servers, (server) => !missing.has(server), query),
      );
    }
    // The first searches came before all 70 had started: they said so.
    expect(partial).toBeGreaterThan(0);
    await cold.gateway.ready();
    const states = cold.gateway.upstreams.states();
    expect(states.filter((state) => state.status !== 'ready')).toEqual([]);
    expect(cold.gateway.upstreams.tools).toHaveLength(SERVERS * TOOLS_PER_SERVER);
    await cold.gateway.close();
    // Every start was counted once, and every manifest is in the cache.
    expect((await readFile(startsFile, 'utf8')).trim().split('\n')).toHaveLength(SERVERS);
    expect((await readdir(cacheDir)).filter((file) => file.endsWith('.json'))).toHaveLength(
      SERVERS,
    );

    const warm = await startGateway({ cacheDir, toolsDir, startsFile });
    for (const query of QUERIES) {
      const answer = await search(warm.client, query);
      expect(answer.notSearchable).toBeUndefined();
      expectSameRanking(
        answer.results,
        libraryRanking(servers, () => true, query),
      );
    }
    await warm.client.request({ method: 'tools/list', params: {} });
    expect(warm.gateway.upstreams.runningPids()).toEqual([]);
    expect((await readFile(startsFile, 'utf8')).trim().split('\n')).toHaveLength(SERVERS);
  }, 90_000);
});
