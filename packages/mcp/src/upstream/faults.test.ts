import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { MAX_RESULT_DESCRIPTION } from 'tool-search-core';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  listToolNames,
  startHttpGateway,
  temporaryDir,
  textOf,
} from '../test-utils/harness';
import { fixture, npmServer } from '../test-utils/servers';

interface SearchOutput {
  results: { name: string; description: string; score: number }[];
}

async function search(
  client: Client,
  query: string,
  limit?: number,
): Promise<SearchOutput['results']> {
  const result = await callTool(client, 'search_tools', { query, ...(limit && { limit }) });
  return (result.structuredContent as unknown as SearchOutput).results;
}

/** Process ids the fixture wrote to its starts file: one line per start. */
async function starts(file: string): Promise<string[]> {
  try {
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  { attempts, delay } = { attempts: 100, delay: 50 },
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('upstream faults', () => {
  it('starts with broken upstreams among good ones and names each failure in the log', async () => {
    const gateway = await startHttpGateway({
      servers: {
        // A generous timeout of its own: the good server must come up however busy the machine is,
        // while the broken ones fail by theirs.
        good: fixture([], { connectTimeout: 60_000 }),
        crashes: fixture(['--mode', 'crash-on-start']),
        hangs: fixture(['--mode', 'hang-on-start']),
        garbage: fixture(['--mode', 'garbage']),
        badList: fixture(['--mode', 'bad-list'], { connectTimeout: 60_000 }),
        missing: { command: '/nonexistent/program' },
      },
      upstream: { connectTimeout: 3_000 },
    });
    try {
      // Read before any request: a search also retries failed upstreams in the background.
      const states = Object.fromEntries(
        gateway.gateway.upstreams.states().map((state) => [state.server, state]),
      );
      expect(states.good).toMatchObject({ status: 'ready', toolCount: 6 });
      for (const server of ['crashes', 'hangs', 'garbage', 'badList', 'missing']) {
        expect(states[server]).toMatchObject({ status: 'failed', toolCount: 0 });
        expect(gateway.logs.some((line) => line.startsWith(`${server}: `))).toBe(true);
      }
      expect(states.hangs?.error).toMatch(/did not start within 3000 ms/);
      expect(states.garbage?.error).toMatch(/did not start within 3000 ms/);
      expect(states.badList?.error).toMatch(/Invalid result for tools\/list/);
      expect(states.missing?.error).toMatch(/ENOENT/);
      const client = await gateway.connect();
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      const found = await search(client, 'echo the arguments', 50);
      expect(found.map((hit) => hit.name)).toContain('good__echo');
      expect(found.every((hit) => hit.name.startsWith('good__'))).toBe(true);
      await callTool(client, 'load_tool', { toolName: 'good__echo' });
      expect(textOf(await callTool(client, 'good__echo', { ok: 1 }))).toBe('{"ok":1}');
    } finally {
      await gateway.close();
    }
  });

  it('answers a call to an upstream that exits with isError, then restarts it on a later call', async () => {
    const temp = await temporaryDir();
    const startsFile = join(temp.dir, 'starts');
    const gateway = await startHttpGateway({
      servers: { fixture: fixture(['--starts', startsFile]) },
    });
    try {
      const client = await gateway.connect();
      await callTool(client, 'load_tool', { toolNames: ['fixture__crash', 'fixture__echo'] });
      expect(await starts(startsFile)).toHaveLength(1);
      const crashed = await callTool(client, 'fixture__crash', {});
      expect(crashed.isError).toBe(true);
      expect(textOf(crashed)).toMatch(/"fixture" is unavailable/);
      const echoed = await callTool(client, 'fixture__echo', { after: 'restart' });
      expect(textOf(echoed)).toBe('{"after":"restart"}');
      expect(await starts(startsFile)).toHaveLength(2);
      expect(gateway.logs.some((line) => line.includes('fixture: exited'))).toBe(true);
    } finally {
      await gateway.close();
      await temp.remove();
    }
  });

  it('stops an upstream that hangs on a call, answers isError, and restarts it', async () => {
    const temp = await temporaryDir();
    const startsFile = join(temp.dir, 'starts');
    const gateway = await startHttpGateway({
      servers: { fixture: fixture(['--starts', startsFile]) },
      upstream: { callTimeout: 1_000 },
    });
    try {
      const client = await gateway.connect();
      await callTool(client, 'load_tool', { toolNames: ['fixture__hang', 'fixture__echo'] });
      const hung = await callTool(client, 'fixture__hang', {});
      expect(hung.isError).toBe(true);
      expect(textOf(hung)).toMatch(/did not answer hang within 1000 ms/);
      expect(textOf(await callTool(client, 'fixture__echo', { n: 2 }))).toBe('{"n":2}');
      expect(await starts(startsFile)).toHaveLength(2);
    } finally {
      await gateway.close();
      await temp.remove();
    }
  });

  it('keeps a cached upstream searchable while it cannot start, and backs off between restarts', async () => {
    const temp = await temporaryDir();
    const cacheDir = join(temp.dir, 'cache');
    const startsFile = join(temp.dir, 'starts');
    const toolsFile = join(temp.dir, 'extra-tools');
    await writeFile(toolsFile, 'first_extra\n');
    // The fixture reads its tools file at start and crashes when the file is missing.
    const servers = { flaky: fixture(['--starts', startsFile, '--tools-file', toolsFile]) };
    const warmUp = await startHttpGateway({ servers, cacheDir });
    await warmUp.close();
    expect(await starts(startsFile)).toHaveLength(1);
    await rm(toolsFile);

    const gateway = await startHttpGateway({
      servers,
      cacheDir,
      // Long enough that a busy machine cannot let it pass between two consecutive calls.
      upstream: { restartBackoff: { initial: 2_000, max: 2_000 } },
    });
    try {
      const client = await gateway.connect();
      expect((await search(client, 'first extra tool')).map((hit) => hit.name)).toContain(
        'flaky__first_extra',
      );
      expect(await starts(startsFile)).toHaveLength(1);
      await callTool(client, 'load_tool', { toolName: 'flaky__echo' });
      const firstTry = await callTool(client, 'flaky__echo', {});
      expect(firstTry.isError).toBe(true);
      expect(textOf(firstTry)).toMatch(/"flaky" is unavailable/);
      expect(await starts(startsFile)).toHaveLength(2);
      // Within the backoff a call is answered at once, without starting the upstream again.
      const backingOff = await callTool(client, 'flaky__echo', {});
      expect(textOf(backingOff)).toMatch(/next restart is tried in 2 s/);
      expect(await starts(startsFile)).toHaveLength(2);
      // Still searchable from the manifest while down.
      expect((await search(client, 'echo')).map((hit) => hit.name)).toContain('flaky__echo');

      await writeFile(toolsFile, 'first_extra\nsecond_extra\n');
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
      });
      expect(textOf(await callTool(client, 'flaky__echo', { back: true }))).toBe('{"back":true}');
      expect(await starts(startsFile)).toHaveLength(3);
      // The manifest is refreshed after the start: the new tool is searchable and announced.
      await changed;
      expect((await search(client, 'second extra tool')).map((hit) => hit.name)).toContain(
        'flaky__second_extra',
      );
    } finally {
      await gateway.close();
      await temp.remove();
    }
  });

  it('answers tools/list and search_tools from a warm cache without starting any upstream', async () => {
    const temp = await temporaryDir();
    const cacheDir = join(temp.dir, 'cache');
    const startsFile = join(temp.dir, 'starts');
    const memoryFile = join(temp.dir, 'memory.jsonl');
    const servers = {
      fixture: fixture(['--starts', startsFile]),
      memory: npmServer('memory', [], { env: { MEMORY_FILE_PATH: memoryFile } }),
    };
    const cold = await startHttpGateway({ servers, cacheDir });
    expect(cold.gateway.upstreams.runningPids()).toHaveLength(2);
    await cold.close();
    expect(await starts(startsFile)).toHaveLength(1);

    const warm = await startHttpGateway({ servers, cacheDir });
    try {
      const client = await warm.connect();
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      const found = await search(client, 'create entities knowledge graph');
      expect(found[0]?.name).toBe('memory__create_entities');
      expect(warm.gateway.upstreams.runningPids()).toEqual([]);
      expect(await starts(startsFile)).toHaveLength(1);
      expect(warm.gateway.upstreams.states().every((state) => state.fromCache)).toBe(true);
      // The first call starts only the upstream it needs.
      await callTool(client, 'load_tool', { toolName: 'memory__create_entities' });
      const created = await callTool(client, 'memory__create_entities', {
        entities: [{ name: 'Lazy', entityType: 'test', observations: [] }],
      });
      expect(created.isError).toBeFalsy();
      expect(await readFile(memoryFile, 'utf8')).toContain('"Lazy"');
      expect(warm.gateway.upstreams.runningPids()).toHaveLength(1);
      expect(await starts(startsFile)).toHaveLength(1);
    } finally {
      await warm.close();
      await temp.remove();
    }
  });

  it('follows an upstream that changes its tools while running', async () => {
    const gateway = await startHttpGateway({ servers: { fixture: fixture() } });
    try {
      const client = await gateway.connect();
      await callTool(client, 'load_tool', { toolName: 'fixture__add_tool' });
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
      });
      const added = textOf(await callTool(client, 'fixture__add_tool', {}));
      await changed;
      await waitFor(
        async () => (await search(client, added)).some((hit) => hit.name === `fixture__${added}`),
        'the added tool to be searchable',
      );
      await callTool(client, 'load_tool', { toolName: `fixture__${added}` });
      expect(textOf(await callTool(client, `fixture__${added}`, {}))).toBe(`${added} ran`);
    } finally {
      await gateway.close();
    }
  });

  it('keeps a huge manifest out of tools/list and cuts long descriptions in search results', async () => {
    const gateway = await startHttpGateway({
      servers: { huge: fixture(['--tools', '2000', '--description-length', '2000']) },
    });
    try {
      const client = await gateway.connect();
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      const found = await search(client, 'generated tool number 1234 task', 10);
      expect(found[0]?.name).toBe('huge__tool_1234');
      for (const hit of found)
        expect(hit.description.length).toBeLessThanOrEqual(MAX_RESULT_DESCRIPTION);
    } finally {
      await gateway.close();
    }
  });
});
