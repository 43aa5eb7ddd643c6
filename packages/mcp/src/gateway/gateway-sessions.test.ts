import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createMemoryStore, type LoadedToolsStore, type MemoryStore } from 'tool-search-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, listToolNames } from '../test-utils/harness';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { serveGatewayHttp } from './serve-http';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

/** A store whose `update` waits at a gate: a load can be held in flight while its session closes. */
function gatedStore(memory: MemoryStore): {
  store: LoadedToolsStore;
  entered: Promise<void>;
  release: () => void;
} {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  return {
    store: {
      get: (thread) => memory.get(thread),
      set: (thread, state) => memory.set(thread, state),
      delete: (thread) => memory.delete(thread),
      async update(thread, operation) {
        enter();
        await gate;
        return memory.update(thread, operation);
      },
    },
    entered,
    release,
  };
}

/** Resolves once `condition` holds, checking after each turn of the event loop (a hang guard caps it). */
async function eventually(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let turn = 0; turn < 1_000; turn++) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('ToolSearchGateway sessions', () => {
  let upstream: CountingUpstream;

  beforeAll(async () => {
    upstream = await startCountingUpstream(['echo', 'send_email']);
  });
  afterAll(async () => {
    await upstream.close();
  });

  function createGateway(storage: LoadedToolsStore): ToolSearchGateway {
    return createToolSearchGateway({
      toolSearch: { enabled: true, expose: 'tools' },
      upstreams: createUpstreamManager({
        servers: { up: { url: upstream.url.href } },
        log: () => undefined,
      }),
      storage,
      log: () => undefined,
    });
  }

  async function connectInMemory(gateway: ToolSearchGateway, threadId: string): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide, { threadId, forgetOnClose: true });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  }

  /** A connection to a thread the caller names (not forgotten on close). */
  async function connectShared(gateway: ToolSearchGateway, threadId: string): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide, { threadId });
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  }

  it("forgets a session's loaded tools when its client disconnects", async () => {
    const memory = createMemoryStore({ ttl: 0 });
    const gateway = createGateway(memory);
    try {
      const client = await connectInMemory(gateway, 'thread-a');
      await callTool(client, 'load_tool', { toolName: 'up__echo' });
      expect(await memory.get('thread-a')).toMatchObject({ tools: [{ id: 'up__echo' }] });
      expect(gateway.sessionCount).toBe(1);
      await client.close();
      await eventually(async () => (await memory.get('thread-a')) === undefined);
      expect(gateway.sessionCount).toBe(0);
      expect(memory.getStateStats().threadCount).toBe(0);
    } finally {
      await gateway.close();
    }
  });

  it('forgets the loads of a session that disconnects while a load_tool is still running', async () => {
    const memory = createMemoryStore({ ttl: 0 });
    const gated = gatedStore(memory);
    const gateway = createGateway(gated.store);
    try {
      const client = await connectInMemory(gateway, 'thread-b');
      const pending = callTool(client, 'load_tool', { toolName: 'up__echo' }).catch(
        (error: unknown) => error,
      );
      await gated.entered;
      await client.close();
      expect(gateway.sessionCount).toBe(0);
      gated.release();
      await pending;
      // The load lands after the session's clean-up; the gateway clears the thread once more.
      await eventually(async () => (await memory.get('thread-b')) === undefined);
      expect(await memory.get('thread-b')).toBeUndefined();
      expect(memory.getStateStats().threadCount).toBe(0);
    } finally {
      gated.release();
      await gateway.close();
    }
  });

  it('keeps a thread it was given when one of its connections closes', async () => {
    const memory = createMemoryStore({ ttl: 0 });
    const gateway = createGateway(memory);
    try {
      const first = await connectShared(gateway, 'user-42');
      const second = await connectShared(gateway, 'user-42');
      await callTool(first, 'load_tool', { toolName: 'up__echo' });
      expect(gateway.sessionCount).toBe(2);
      expect(await listToolNames(second)).toEqual(['search_tools', 'load_tool', 'up__echo']);
      await second.close();
      await eventually(() => gateway.sessionCount === 1);
      expect(gateway.sessionCount).toBe(1);
      expect(await listToolNames(first)).toEqual(['search_tools', 'load_tool', 'up__echo']);
      expect(await memory.get('user-42')).toMatchObject({ tools: [{ id: 'up__echo' }] });
      await first.close();
      await eventually(() => gateway.sessionCount === 0);
      // Named threads are the caller's to clear: the last connection closing keeps them too.
      expect(await memory.get('user-42')).toMatchObject({ tools: [{ id: 'up__echo' }] });
    } finally {
      await gateway.close();
    }
  });

  it("keeps another instance's session loads when a connection to its thread closes (a shared store)", async () => {
    const shared = createMemoryStore({ ttl: 0 });
    const a = createGateway(shared);
    const b = createGateway(shared);
    const http = await serveGatewayHttp(a, { port: 0 });
    try {
      const transport = new StreamableHTTPClientTransport(http.url);
      const owner = new Client({ name: 'owner', version: '1.0.0' });
      await owner.connect(transport);
      await callTool(owner, 'load_tool', { toolName: 'up__echo' });
      // Instance B serves the same thread for a while (the README's multi-instance setup).
      const helper = await connectShared(b, transport.sessionId!);
      expect(await listToolNames(helper)).toEqual(['search_tools', 'load_tool', 'up__echo']);
      await helper.close();
      await eventually(() => b.sessionCount === 0);
      expect(await listToolNames(owner)).toEqual(['search_tools', 'load_tool', 'up__echo']);
      // The session's own end (DELETE on its instance) does clear it.
      const id = transport.sessionId!;
      await transport.terminateSession();
      await owner.close();
      await eventually(async () => (await shared.get(id)) === undefined);
      expect(await shared.get(id)).toBeUndefined();
    } finally {
      await http.close();
      await a.close();
      await b.close();
    }
  });

  it('frees an HTTP session ended with DELETE, and keeps the other sessions', async () => {
    const memory = createMemoryStore({ ttl: 0 });
    const gateway = createGateway(memory);
    const http = await serveGatewayHttp(gateway, { port: 0 });
    try {
      const first = new StreamableHTTPClientTransport(http.url);
      const second = new StreamableHTTPClientTransport(http.url);
      const one = new Client({ name: 'one', version: '1.0.0' });
      const two = new Client({ name: 'two', version: '1.0.0' });
      await one.connect(first);
      await two.connect(second);
      await callTool(one, 'load_tool', { toolName: 'up__echo' });
      await callTool(two, 'load_tool', { toolName: 'up__send_email' });
      expect(memory.getStateStats().threadCount).toBe(2);
      const ended = first.sessionId!;
      await first.terminateSession();
      await one.close();
      await eventually(() => http.sessionCount === 1 && gateway.sessionCount === 1);
      expect(http.sessionCount).toBe(1);
      expect(await memory.get(ended)).toBeUndefined();
      expect(await memory.get(second.sessionId!)).toMatchObject({
        tools: [{ id: 'up__send_email' }],
      });
      expect(await listToolNames(two)).toEqual(['search_tools', 'load_tool', 'up__send_email']);
      await two.close();
    } finally {
      await http.close();
      await gateway.close();
    }
  });
});
