import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  type HttpGateway,
  listToolNames,
  listTools,
  startHttpGateway,
  temporaryDir,
  textOf,
} from '../test-utils/harness';
import { fixture, npmServer } from '../test-utils/servers';

interface SearchOutput {
  results: { name: string; description: string; score: number }[];
}

/** Resolves on the next `notifications/tools/list_changed` the client receives. */
function nextListChanged(client: Client): Promise<void> {
  return new Promise((resolve) => {
    client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
  });
}

describe('ToolSearchGateway over the npm reference servers (Streamable HTTP)', () => {
  let temp: Awaited<ReturnType<typeof temporaryDir>>;
  let gateway: HttpGateway;
  let memoryFile: string;

  beforeAll(async () => {
    temp = await temporaryDir();
    memoryFile = join(temp.dir, 'memory.jsonl');
    gateway = await startHttpGateway({
      servers: {
        memory: npmServer('memory', [], { env: { MEMORY_FILE_PATH: memoryFile } }),
        filesystem: npmServer('filesystem', [temp.dir], {
          denyTools: ['move_*', 'create_directory'],
        }),
        everything: npmServer('everything', [], { allowTools: ['echo', 'get-*'] }),
        fixture: fixture(),
      },
    });
  });

  afterAll(async () => {
    await gateway.close();
    await temp.remove();
  });

  it('lists only the meta-tools before anything is loaded', async () => {
    const client = await gateway.connect();
    expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
    const [search] = await listTools(client);
    expect(search?.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' } },
    });
  });

  it('answers search_tools with results as structuredContent and the same JSON as text', async () => {
    const client = await gateway.connect();
    const result = await callTool(client, 'search_tools', {
      query: 'create entities in the knowledge graph',
    });
    const output = result.structuredContent as unknown as SearchOutput;
    expect(result.isError).toBeUndefined();
    expect(output.results[0]?.name).toBe('memory__create_entities');
    for (const hit of output.results) {
      expect(Object.keys(hit).sort()).toEqual(['description', 'name', 'score']);
      expect(hit.score).toBeGreaterThan(0);
    }
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('loads tools with a list_changed notification and lists them after the meta-tools in load order', async () => {
    const client = await gateway.connect();
    const changed = nextListChanged(client);
    const load = await callTool(client, 'load_tool', { toolName: 'memory__read_graph' });
    expect(load.structuredContent).toMatchObject({ success: true, toolName: 'memory__read_graph' });
    await changed;
    const again = nextListChanged(client);
    await callTool(client, 'load_tool', {
      toolNames: ['everything__echo', 'filesystem__list_directory'],
    });
    await again;
    expect(await listToolNames(client)).toEqual([
      'search_tools',
      'load_tool',
      'memory__read_graph',
      'everything__echo',
      'filesystem__list_directory',
    ]);
    const tools = await listTools(client);
    const echo = tools.find((tool) => tool.name === 'everything__echo');
    expect(echo?.inputSchema).toMatchObject({ properties: { message: { type: 'string' } } });
  });

  it('forwards arguments unchanged and returns the upstream result unchanged', async () => {
    const client = await gateway.connect();
    await callTool(client, 'load_tool', {
      toolNames: [
        'everything__echo',
        'everything__get-structured-content',
        'fixture__echo',
        'fixture__fail',
      ],
    });
    const echo = await callTool(client, 'everything__echo', { message: 'hello, gateway' });
    expect(echo).toEqual({ content: [{ type: 'text', text: 'Echo: hello, gateway' }] });
    const args = { nested: { list: [1, 'two', null], flag: true }, 'odd key': 'ü' };
    expect(textOf(await callTool(client, 'fixture__echo', args))).toBe(JSON.stringify(args));
    const structured = await callTool(client, 'everything__get-structured-content', {
      location: 'New York',
    });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    expect(await callTool(client, 'fixture__fail', {})).toEqual({
      content: [{ type: 'text', text: 'upstream said no' }],
      isError: true,
    });
  });

  it('never executes a tool that was found but not loaded', async () => {
    const client = await gateway.connect();
    const search = await callTool(client, 'search_tools', { query: 'write a file' });
    const names = (search.structuredContent as unknown as SearchOutput).results.map(
      (hit) => hit.name,
    );
    expect(names).toContain('filesystem__write_file');
    const target = join(temp.dir, 'never.txt');
    const write = await callTool(client, 'filesystem__write_file', { path: target, content: 'x' });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/not loaded.*search_tools.*load_tool/);
    expect(existsSync(target)).toBe(false);
    const create = await callTool(client, 'memory__create_entities', {
      entities: [{ name: 'Ghost', entityType: 'person', observations: [] }],
    });
    expect(create.isError).toBe(true);
    const graph = existsSync(memoryFile) ? await readFile(memoryFile, 'utf8') : '';
    expect(graph).not.toContain('Ghost');
  });

  it('runs a loaded tool for real: the upstream side effect happens', async () => {
    const client = await gateway.connect();
    await callTool(client, 'load_tool', { toolName: 'memory__create_entities' });
    const result = await callTool(client, 'memory__create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(result.isError).toBeFalsy();
    expect(await readFile(memoryFile, 'utf8')).toContain('"Ada"');
  });

  it('hides denied and not-allowed tools from search, load and call', async () => {
    const client = await gateway.connect();
    const search = await callTool(client, 'search_tools', { query: 'move rename file', limit: 50 });
    const names = (search.structuredContent as unknown as SearchOutput).results.map(
      (hit) => hit.name,
    );
    expect(names).not.toContain('filesystem__move_file');
    expect(names.some((name) => name.startsWith('filesystem__'))).toBe(true);
    const load = await callTool(client, 'load_tool', { toolName: 'filesystem__move_file' });
    expect(load.isError).toBe(true);
    expect(load.structuredContent).toMatchObject({ success: false });
    const dir = join(temp.dir, 'denied');
    const call = await callTool(client, 'filesystem__create_directory', { path: dir });
    expect(call.isError).toBe(true);
    expect(existsSync(dir)).toBe(false);
    // everything allows only echo and get-*: its other tools are not in the catalog at all.
    const everything = await callTool(client, 'search_tools', {
      query: 'everything long running operation',
    });
    const found = (everything.structuredContent as unknown as SearchOutput).results.map(
      (hit) => hit.name,
    );
    expect(found).not.toContain('everything__trigger-long-running-operation');
  });

  it('keeps each HTTP session to its own loaded tools', async () => {
    const first = await gateway.connect();
    const second = await gateway.connect();
    await callTool(first, 'load_tool', { toolName: 'fixture__echo' });
    expect(await listToolNames(first)).toContain('fixture__echo');
    expect(await listToolNames(second)).toEqual(['search_tools', 'load_tool']);
    const refused = await callTool(second, 'fixture__echo', { from: 'second' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/not loaded/);
    expect(textOf(await callTool(first, 'fixture__echo', { from: 'first' }))).toBe(
      '{"from":"first"}',
    );
  });

  it('answers bad input to the meta-tools without failing the session', async () => {
    const client = await gateway.connect();
    const empty = await callTool(client, 'search_tools', {});
    expect(empty.structuredContent).toMatchObject({ results: [] });
    const huge = await callTool(client, 'search_tools', { query: 'file '.repeat(20_000) });
    expect(Array.isArray((huge.structuredContent as unknown as SearchOutput).results)).toBe(true);
    const load = await callTool(client, 'load_tool', { toolName: '__proto__' });
    expect(load.isError).toBe(true);
    const unknown = await callTool(client, 'no_such_tool');
    expect(unknown.isError).toBe(true);
    expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
  });
});

describe('ToolSearchGateway options', () => {
  it('offers unload_tool, lists pinned tools first, and unloads with a list_changed', async () => {
    const gateway = await startHttpGateway({
      servers: { fixture: fixture() },
      toolSearch: { enabled: true, unloadTool: true, alwaysLoaded: ['fixture__fail'] },
    });
    try {
      const client = await gateway.connect();
      expect(await listToolNames(client)).toEqual([
        'search_tools',
        'load_tool',
        'unload_tool',
        'fixture__fail',
      ]);
      await callTool(client, 'load_tool', { toolName: 'fixture__echo' });
      expect(await listToolNames(client)).toContain('fixture__echo');
      const changed = nextListChanged(client);
      const unload = await callTool(client, 'unload_tool', { toolNames: ['fixture__echo'] });
      expect(unload.structuredContent).toMatchObject({
        success: true,
        unloaded: ['fixture__echo'],
      });
      await changed;
      expect(await listToolNames(client)).not.toContain('fixture__echo');
    } finally {
      await gateway.close();
    }
  });

  it('under autoLoad, search loads what it finds and announces it', async () => {
    const gateway = await startHttpGateway({
      servers: { fixture: fixture() },
      toolSearch: { enabled: true, autoLoad: true, topK: 1 },
    });
    try {
      const client = await gateway.connect();
      expect(await listToolNames(client)).toEqual(['search_tools']);
      const changed = nextListChanged(client);
      const search = await callTool(client, 'search_tools', { query: 'echo the arguments' });
      expect(search.structuredContent).toMatchObject({
        activation: { loaded: ['fixture__echo'] },
      });
      await changed;
      expect(await listToolNames(client)).toEqual(['search_tools', 'fixture__echo']);
    } finally {
      await gateway.close();
    }
  });

  it('under expose proxy, keeps the list fixed, runs the top hit of a search through call_tool next, and any allowed tool by its call', async () => {
    const temp = await temporaryDir();
    const gateway = await startHttpGateway({
      servers: { filesystem: npmServer('filesystem', [temp.dir]) },
      toolSearch: { enabled: true, expose: 'proxy' },
    });
    try {
      const client = await gateway.connect();
      const meta = ['search_tools', 'load_tool', 'call_tool'];
      expect(await listToolNames(client)).toEqual(meta);
      // Request 1: the search answers its best hits, the first ones with their definitions.
      const search = await callTool(client, 'search_tools', { query: 'write a file' });
      const found = search.structuredContent as {
        results: { name: string }[];
        tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
      };
      expect(found.results[0]?.name).toBe('filesystem__write_file');
      expect(found.tools[0]?.name).toBe('filesystem__write_file');
      expect(Object.keys(found.tools[0]!.inputSchema.properties)).toEqual(
        expect.arrayContaining(['path', 'content']),
      );
      // Request 2: the top hit runs through call_tool, once.
      const target = join(temp.dir, 'proxied.txt');
      const write = await callTool(client, 'call_tool', {
        name: found.results[0]!.name,
        arguments: { path: target, content: 'through the proxy' },
      });
      expect(write.isError).toBeFalsy();
      expect(await readFile(target, 'utf8')).toBe('through the proxy');
      // A tool never searched for runs too; arguments its schema refuses run nothing and bring
      // its definition back.
      const folder = join(temp.dir, 'made');
      const refused = await callTool(client, 'call_tool', {
        name: 'filesystem__create_directory',
        arguments: { where: folder },
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({
        tools: [{ name: 'filesystem__create_directory' }],
      });
      expect(existsSync(folder)).toBe(false);
      const made = await callTool(client, 'call_tool', {
        name: 'filesystem__create_directory',
        arguments: { path: folder },
      });
      expect(made.isError).toBeFalsy();
      expect(existsSync(folder)).toBe(true);
      // load_tool still answers with schemas; the list never changed.
      const load = await callTool(client, 'load_tool', { toolName: 'filesystem__read_file' });
      const loaded = load.structuredContent as { tools: { name: string }[] };
      expect(loaded.tools.map((tool) => tool.name)).toEqual(['filesystem__read_file']);
      expect(await listToolNames(client)).toEqual(meta);
      const bad = await callTool(client, 'call_tool', { name: 42 });
      expect(bad.isError).toBe(true);
    } finally {
      await gateway.close();
      await temp.remove();
    }
  });
});

describe('ToolSearchGateway tools/list answers', () => {
  it("lists a loaded tool's new definition once its upstream changes it", async () => {
    const gateway = await startHttpGateway({
      servers: { fixture: fixture(['--set-description']) },
    });
    try {
      const client = await gateway.connect();
      await callTool(client, 'load_tool', {
        toolNames: ['fixture__echo', 'fixture__set_description'],
      });
      const echoOf = async () =>
        (await listTools(client)).find((tool) => tool.name === 'fixture__echo');
      expect((await echoOf())?.description).toBe('Echo the arguments back as JSON text');
      // Asked again with nothing changed: the same answer.
      expect((await echoOf())?.description).toBe('Echo the arguments back as JSON text');
      const changed = nextListChanged(client);
      await callTool(client, 'fixture__set_description', {
        tool: 'echo',
        description: 'Echo, described again',
      });
      await changed;
      expect((await echoOf())?.description).toBe('Echo, described again');
      expect(await listToolNames(client)).toEqual([
        'search_tools',
        'load_tool',
        'fixture__echo',
        'fixture__set_description',
      ]);
    } finally {
      await gateway.close();
    }
  });

  it('lists the loads and unloads another connection of the same thread made', async () => {
    const gateway = await startHttpGateway({
      servers: { fixture: fixture() },
      toolSearch: { enabled: true, unloadTool: true },
    });
    const clients: Client[] = [];
    try {
      for (let count = 0; count < 2; count++) {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await gateway.gateway.connect(serverSide, { threadId: 'shared-thread' });
        const client = new Client({ name: 'test-client', version: '1.0.0' });
        await client.connect(clientSide);
        clients.push(client);
      }
      const [reader, writer] = clients as [Client, Client];
      const metaTools = ['search_tools', 'load_tool', 'unload_tool'];
      expect(await listToolNames(reader)).toEqual(metaTools);
      expect(await listToolNames(reader)).toEqual(metaTools);
      await callTool(writer, 'load_tool', { toolNames: ['fixture__echo', 'fixture__fail'] });
      expect(await listToolNames(reader)).toEqual([...metaTools, 'fixture__echo', 'fixture__fail']);
      await callTool(writer, 'unload_tool', { toolNames: ['fixture__echo'] });
      expect(await listToolNames(reader)).toEqual([...metaTools, 'fixture__fail']);
      await callTool(writer, 'load_tool', { toolName: 'fixture__echo' });
      expect(await listToolNames(reader)).toEqual([...metaTools, 'fixture__fail', 'fixture__echo']);
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await gateway.close();
    }
  });
});
