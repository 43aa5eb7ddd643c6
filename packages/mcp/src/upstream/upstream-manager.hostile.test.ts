/**
 * Hostile upstreams, table-driven: what a third-party MCP server may publish or be sent. Each row
 * states its outcome, finishes within its stated time (the test's timeout: a hang guard, never a
 * speed gate), and leaves the other upstreams and the gateway's sessions working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchGateway } from '../gateway/tool-search-gateway';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, type HttpGateway, startHttpGateway, textOf } from '../test-utils/harness';
import { fixture } from '../test-utils/servers';
import { MAX_TOOL_LIST_BYTES, UpstreamError } from './upstream-connection';
import { createUpstreamManager } from './upstream-manager';

/** Hang guards: a 50 MB tool list takes a busy machine tens of seconds to produce and refuse. */
const SLOW = 180_000;
const QUICK = 30_000;
/** Tools of 2,000-character descriptions in a 50 MB tool list. */
const FIFTY_MB_TOOLS = 25_000;

interface SearchOutput {
  results: { name: string }[];
}

async function search(gateway: HttpGateway, query: string): Promise<string[]> {
  const client = await gateway.connect();
  const result = await callTool(client, 'search_tools', { query, limit: 50 });
  return (result.structuredContent as unknown as SearchOutput).results.map((hit) => hit.name);
}

describe('an upstream whose tool list is 50 MB', () => {
  it(
    'over stdio: is refused with the reason, while the other upstream serves',
    async () => {
      const gateway = await startHttpGateway({
        servers: {
          huge: fixture(['--tools', String(FIFTY_MB_TOOLS), '--description-length', '2000']),
          small: fixture(),
        },
        // Long enough for the child to produce 50 MB, so the refusal (not a timeout) is seen.
        upstream: { connectTimeout: SLOW },
      });
      try {
        const [huge, small] = gateway.gateway.upstreams.states();
        expect(huge).toMatchObject({ server: 'huge', status: 'failed', toolCount: 0 });
        expect(huge?.error).toMatch(/ReadBuffer exceeded maximum size of 10485760 bytes/);
        expect(small).toMatchObject({ server: 'small', status: 'ready', toolCount: 6 });
        expect(await search(gateway, 'echo arguments')).toContain('small__echo');
        const client = await gateway.connect();
        await callTool(client, 'load_tool', { toolName: 'small__echo' });
        expect(textOf(await callTool(client, 'small__echo', { a: 1 }))).toBe('{"a":1}');
      } finally {
        await gateway.close();
      }
    },
    SLOW,
  );

  it(
    'over HTTP: is refused past 10 MiB instead of being indexed',
    async () => {
      const upstream = await startCountingUpstream(
        Array.from({ length: FIFTY_MB_TOOLS }, (_, index) => `tool_${index}_${'d'.repeat(1_900)}`),
      );
      const small = await startCountingUpstream(['echo']);
      const logs: string[] = [];
      const upstreams = createUpstreamManager({
        servers: { huge: { url: upstream.url.href }, small: { url: small.url.href } },
        connectTimeout: SLOW,
        log: (line) => logs.push(line),
      });
      const gateway = createToolSearchGateway({ upstreams, log: (line) => logs.push(line) });
      try {
        await gateway.ready();
        const [huge, ready] = upstreams.states();
        expect(huge).toMatchObject({ status: 'failed', toolCount: 0 });
        expect(huge?.error).toContain(`over ${MAX_TOOL_LIST_BYTES / 2 ** 20} MiB of JSON`);
        expect(logs.join('\n')).toContain('huge: its tool list is over 10 MiB');
        expect(ready).toMatchObject({ status: 'ready', toolCount: 1 });
        expect([...gateway.engine.catalog.keys()]).toEqual(['small__echo']);
      } finally {
        await gateway.close();
        await upstream.close();
        await small.close();
      }
    },
    SLOW,
  );
});

describe('an upstream whose tool names collide', () => {
  let upstream: CountingUpstream;
  let gateway: HttpGateway;
  /** 30,000 tools named `dup` (about 3 MB of tool list), and names that differ only in odd characters. */
  const COPIES = 30_000;

  beforeAll(async () => {
    upstream = await startCountingUpstream([
      ...Array.from({ length: COPIES }, () => 'dup'),
      'get weather',
      'get_weather',
      'get/weather',
      '__proto__',
      'constructor',
    ]);
    gateway = await startHttpGateway({ servers: { up: { url: upstream.url.href } } });
  }, QUICK);
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('gives every tool its own name, the first keeping the plain one', () => {
    const names = gateway.gateway.upstreams.tools.map((tool) => tool.name);
    expect(names.slice(0, 3)).toEqual(['up__dup', 'up__dup_2', 'up__dup_3']);
    expect(names.slice(COPIES - 1)).toEqual([
      `up__dup_${COPIES}`,
      'up__get_weather',
      'up__get_weather_2',
      'up__get_weather_3',
      'up____proto__',
      'up__constructor',
    ]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('loads and runs a renamed tool, which calls the upstream by its own name', async () => {
    const client = await gateway.connect();
    expect(await search(gateway, 'get weather')).toEqual(
      expect.arrayContaining(['up__get_weather', 'up__get_weather_2', 'up__get_weather_3']),
    );
    const loaded = await callTool(client, 'load_tool', {
      toolNames: ['up__get_weather_3', `up__dup_${COPIES}`, 'up____proto__'],
    });
    expect(loaded.structuredContent).toMatchObject({ success: true, loadedCount: 3 });
    const before = upstream.executions.length;
    await callTool(client, 'up__get_weather_3', { city: 'Oslo' });
    await callTool(client, `up__dup_${COPIES}`, {});
    await callTool(client, 'up____proto__', {});
    expect(upstream.executions.slice(before)).toEqual([
      { tool: 'get/weather', arguments: { city: 'Oslo' } },
      { tool: 'dup', arguments: {} },
      { tool: '__proto__', arguments: {} },
    ]);
  });
});

describe('UpstreamManager.callTool with arguments it cannot send', () => {
  it(
    'refuses arguments nested 10,000 levels deep without stopping the upstream',
    async () => {
      const upstream = await startCountingUpstream(['echo']);
      const manager = createUpstreamManager({
        servers: { up: { url: upstream.url.href } },
        log: () => undefined,
      });
      try {
        await manager.start();
        const listings = upstream.listings;
        const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`) as unknown;
        const refused = manager.callTool('up__echo', { deep });
        await expect(refused).rejects.toBeInstanceOf(UpstreamError);
        await expect(refused).rejects.toThrow(/echo was not called: Maximum call stack size/);
        expect(manager.states()[0]).toMatchObject({ status: 'ready' });
        expect(upstream.executions).toEqual([]);
        // The same connection serves the next call: no restart, no new tools/list.
        await manager.callTool('up__echo', { ok: true });
        expect(upstream.executions).toEqual([{ tool: 'echo', arguments: { ok: true } }]);
        expect(upstream.listings).toBe(listings);
      } finally {
        await manager.close();
        await upstream.close();
      }
    },
    QUICK,
  );
});
