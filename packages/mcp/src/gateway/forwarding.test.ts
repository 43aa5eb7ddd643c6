/**
 * What reaches an upstream through the gateway, with real stdio servers: progress and
 * cancellation, tools that require tasks (the reference `everything` server), a tool whose
 * schema cannot be read, names that never move, and names echoed back cut.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { MAX_ECHOED_NAME } from 'tool-search-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSearchConfig, UpstreamConfig } from '../config/gateway-config';
import { callTool, listToolNames, temporaryDir, textOf } from '../test-utils/harness';
import { fixture, npmServer } from '../test-utils/servers';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function start(
  servers: Record<string, UpstreamConfig>,
  toolSearch: ToolSearchConfig = {},
): Promise<{ gateway: ToolSearchGateway; client: Client; logs: string[] }> {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const gateway = createToolSearchGateway({
    upstreams: createUpstreamManager({ servers, connectTimeout: 20_000, log }),
    toolSearch: { enabled: true, expose: 'tools', ...toolSearch },
    log,
  });
  await gateway.ready();
  const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(gatewaySide);
  const client = new Client({ name: 'forwarding-test', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(
    () => gateway.close(),
    () => client.close(),
  );
  return { gateway, client, logs };
}

async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('progress and cancellation', () => {
  it("relays the upstream's progress under the client's own token", async () => {
    const { client } = await start({ up: fixture() });
    await callTool(client, 'load_tool', { toolName: 'up__slow' });
    const progress: { progress: number; total?: number | undefined }[] = [];
    const result = await client.request(
      { method: 'tools/call', params: { name: 'up__slow', arguments: { steps: 4 } } },
      { onprogress: (update) => progress.push(update) },
    );
    expect(textOf(result as never)).toBe('slow ran 4 steps');
    // The MCP SDK drops a progress notification read in the same chunk as its request's response
    // (the response handler removes the progress handler before the notification is dispatched),
    // on the gateway's upstream connection and on this client alike: the last update may be lost.
    const received = progress.map((update) => update.progress);
    expect(received.length).toBeGreaterThanOrEqual(3);
    expect(received).toEqual([1, 2, 3, 4].slice(0, received.length));
    expect(progress.every((update) => update.total === 4)).toBe(true);
  });

  it('cancels the call upstream when the client cancels, so it never runs to its end', async () => {
    const { dir, remove } = await temporaryDir();
    cleanups.push(remove);
    const events = join(dir, 'events.txt');
    await writeFile(events, '');
    const { client, gateway } = await start({ up: fixture(['--events', events]) });
    await callTool(client, 'load_tool', { toolName: 'up__slow' });
    const controller = new AbortController();
    let seen = 0;
    const call = client.request(
      { method: 'tools/call', params: { name: 'up__slow', arguments: { steps: 100, id: 'a' } } },
      {
        signal: controller.signal,
        onprogress: () => {
          seen++;
          if (seen === 2) controller.abort('the user stopped it');
        },
      },
    );
    await expect(call).rejects.toThrow();
    await eventually(
      async () => (await readFile(events, 'utf8')).includes('cancelled a'),
      'the upstream to see the cancellation',
    );
    // It stopped at the cancellation (100 steps would take 5 s), and stays up for the next call.
    expect(await readFile(events, 'utf8')).not.toContain('done a');
    expect(gateway.upstreams.states()[0]?.status).toBe('ready');
    const again = await callTool(client, 'up__slow', { steps: 1, id: 'b' });
    expect(textOf(again)).toBe('slow ran 1 steps');
  });
});

describe('tools that require tasks', () => {
  it("leaves out everything's simulate-research-query, with the reason in the log, and offers the rest", async () => {
    const { client, logs, gateway } = await start({ everything: npmServer('everything') });
    const names = gateway.upstreams.tools.map((tool) => tool.name);
    expect(names).toContain('everything__echo');
    expect(names).not.toContain('everything__simulate-research-query');
    const search = await callTool(client, 'search_tools', { query: 'simulate a research query' });
    const results = (search.structuredContent as { results: { name: string }[] }).results;
    expect(results.map((hit) => hit.name)).not.toContain('everything__simulate-research-query');
    const load = await callTool(client, 'load_tool', {
      toolName: 'everything__simulate-research-query',
    });
    expect(load.isError).toBe(true);
    expect(logs.some((line) => /simulate-research-query.*taskSupport "required"/.test(line))).toBe(
      true,
    );
  });
});

describe('a tool whose schema cannot be read', () => {
  it("costs only itself: 1,000 levels deep, it is logged by name and the server's other tools serve", async () => {
    const { client, logs, gateway } = await start({ up: fixture(['--deep-schema', '1000']) });
    const names = gateway.upstreams.tools.map((tool) => tool.name);
    expect(names).toContain('up__echo');
    expect(names).not.toContain('up__deep');
    expect(logs.some((line) => line.includes('up: tool "deep" is left out'))).toBe(true);
    await callTool(client, 'load_tool', { toolName: 'up__echo' });
    expect(textOf(await callTool(client, 'up__echo', { a: 1 }))).toBe('{"a":1}');
  });
});

describe('exposed names', () => {
  it('keep pointing at the same upstream tool when an earlier server adds a colliding one', async () => {
    // `a` adds `b__c`, exposed as `a__b__c`: the name `a__b`'s `c` already has.
    const { client, gateway } = await start({
      a: fixture(['--add-name', 'b__c']),
      a__b: fixture(['--tools-json', await toolsFile([{ name: 'c', description: 'The c tool' }])]),
    });
    await callTool(client, 'load_tool', { toolName: 'a__b__c' });
    await callTool(client, 'load_tool', { toolName: 'a__add_tool' });
    expect(textOf(await callTool(client, 'a__add_tool', {}))).toBe('b__c');
    await eventually(() => gateway.upstreams.tools.length === 8, "a's new tool");
    expect(gateway.upstreams.lookup('a__b__c')?.server).toBe('a__b');
    expect(gateway.upstreams.lookup('a__b__c_2')).toMatchObject({
      server: 'a',
      definition: { name: 'b__c' },
    });
    // The loaded name still runs a__b's c.
    expect(textOf(await callTool(client, 'a__b__c', {}))).toBe('c ran');
  });

  it('unloads a loaded tool whose upstream tool disappears, with a notice, and never gives its name to another', async () => {
    const { client, gateway, logs } = await start(
      { up: fixture(['--removable', '--add-name', 'echo']) },
      {},
    );
    await callTool(client, 'load_tool', {
      toolNames: ['up__echo', 'up__remove_tool', 'up__add_tool'],
    });
    await callTool(client, 'up__remove_tool', { tool: 'echo' });
    await eventually(async () => !(await listToolNames(client)).includes('up__echo'), 'the unload');
    const refused = await callTool(client, 'up__echo', {});
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/was unloaded: the MCP server "up" no longer offers it/);
    expect(
      logs.some((line) => /no longer offered.*up__echo.*unloaded from 1 session/.test(line)),
    ).toBe(true);
    // The same upstream tool back: its own name again, not loaded.
    await callTool(client, 'up__add_tool', {});
    await eventually(() => gateway.upstreams.lookup('up__echo') !== undefined, 'echo back');
    expect(gateway.upstreams.tools.filter((tool) => tool.definition.name === 'echo')).toHaveLength(
      1,
    );
    expect((await callTool(client, 'up__echo', {})).isError).toBe(true);
  });

  it('are echoed back cut to the length SECURITY.md states', async () => {
    const { client } = await start({ up: fixture() });
    const long = `up__${'x'.repeat(10_000)}`;
    const text = textOf(await callTool(client, long, {}));
    expect(text).toContain(`"${long.slice(0, MAX_ECHOED_NAME)}…"`);
    expect(MAX_ECHOED_NAME).toBe(120);
  });
});

async function toolsFile(tools: { name: string; description: string }[]): Promise<string> {
  const { dir, remove } = await temporaryDir();
  cleanups.push(remove);
  const file = join(dir, 'tools.json');
  await writeFile(
    file,
    JSON.stringify(tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' } }))),
  );
  return file;
}
