import { describe, expect, it, vi } from 'vitest';
import type { LoadToolOutput, UnloadToolOutput } from '../meta-tools/meta-tool-schemas';
import type { LoadedToolsOperation, LoadedToolsStore } from '../state/loaded-tools-store';
import { createMemoryStore } from '../state/memory-store';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
}

const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  get_forecast: { description: 'Multi-day weather forecast for a city' },
  send_email: { description: 'Send an email to a recipient' },
  get_time: { description: 'The current time' },
};

function engineFor(options: Partial<ToolSearchEngineOptions<FakeTool>> = {}) {
  return createToolSearchEngine<FakeTool>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    unloadTool: true,
    ...options,
  });
}

function run(session: ToolSearchSession<FakeTool>, name: string, input: unknown) {
  const tool = session.metaTools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no meta-tool ${name}`);
  return tool.execute(input);
}
const activeIds = async (session: ToolSearchSession<FakeTool>) =>
  (await session.activeTools()).map((tool) => tool.id);

/** A store whose calls are recorded: the memory store's methods, with or without `update`. */
function recordingStore(withUpdate: boolean) {
  const memory = createMemoryStore();
  const calls: string[] = [];
  const operations: LoadedToolsOperation[] = [];
  const store: LoadedToolsStore = {
    get: (threadId) => {
      calls.push('get');
      return memory.get(threadId);
    },
    set: (threadId, state) => {
      calls.push('set');
      return memory.set(threadId, state);
    },
    delete: (threadId) => {
      calls.push('delete');
      return memory.delete(threadId);
    },
    ...(withUpdate && {
      update: (threadId: string, operation: LoadedToolsOperation) => {
        calls.push('update');
        operations.push(operation);
        return memory.update(threadId, operation);
      },
    }),
  };
  return { store, calls, operations };
}

describe('LoadedToolsStore.update', () => {
  it('receives every change as an operation, and set is never called', async () => {
    const { store, calls, operations } = recordingStore(true);
    const session = engineFor({ storage: store, maxLoadedTools: 2 }).createSession({
      threadId: 't',
    });
    const loaded = (await run(session, 'load_tool', {
      toolNames: ['get_weather', 'send_email', 'get_forecast'],
    })) as LoadToolOutput;
    expect(loaded.loaded).toEqual(['send_email', 'get_forecast']);
    expect(loaded.evicted).toEqual(['get_weather']);
    expect(await session.isActive('send_email')).toBe(true);
    const unloaded = (await run(session, 'unload_tool', {
      toolNames: ['send_email'],
    })) as UnloadToolOutput;
    expect(unloaded.unloaded).toEqual(['send_email']);
    expect(await activeIds(session)).toEqual(['get_forecast']);

    expect(calls).not.toContain('set');
    expect(operations).toEqual([
      {
        type: 'load',
        ids: ['get_weather', 'send_email', 'get_forecast'],
        at: expect.any(Number),
        maxLoadedTools: 2,
      },
      { type: 'touch', id: 'send_email', at: expect.any(Number) },
      { type: 'unload', ids: ['send_email'] },
    ]);
  });

  it('leaves a store without update on get and set, with the same results', async () => {
    const { store, calls } = recordingStore(false);
    const session = engineFor({ storage: store, maxLoadedTools: 2 }).createSession({
      threadId: 't',
    });
    const loaded = (await run(session, 'load_tool', {
      toolNames: ['get_weather', 'send_email', 'get_forecast'],
    })) as LoadToolOutput;
    expect(loaded.loaded).toEqual(['send_email', 'get_forecast']);
    expect(loaded.evicted).toEqual(['get_weather']);
    expect(calls.slice(0, 2)).toEqual(['get', 'set']);
    expect(await activeIds(session)).toEqual(['send_email', 'get_forecast']);
  });

  it('writes nothing through set when a change changes nothing', async () => {
    const { store, calls } = recordingStore(false);
    const session = engineFor({ storage: store, maxLoadedTools: 2 }).createSession({
      threadId: 'never-loaded',
    });
    const unloaded = (await run(session, 'unload_tool', {
      toolNames: ['get_weather'],
    })) as UnloadToolOutput;
    expect(unloaded.unloaded).toEqual([]);
    await session.touch('get_weather');
    expect(calls).toEqual(['get', 'get']);
    expect(await store.get('never-loaded')).toBeUndefined();
  });

  it('answers the model and reports store.update when update rejects, keeping pinned tools', async () => {
    const onError = vi.fn();
    const memory = createMemoryStore();
    await memory.update('t', { type: 'load', ids: ['get_weather'], at: 1 });
    const store: LoadedToolsStore = {
      get: (threadId) => memory.get(threadId),
      set: () => Promise.reject(new Error('unused')),
      delete: (threadId) => memory.delete(threadId),
      update: () => Promise.reject(new Error('timed out')),
    };
    const session = engineFor({
      storage: store,
      alwaysLoaded: ['get_time'],
      onError,
    }).createSession({ threadId: 't' });
    const loaded = (await run(session, 'load_tool', { toolName: 'send_email' })) as LoadToolOutput;
    expect(loaded.success).toBe(false);
    const unloaded = (await run(session, 'unload_tool', {
      toolNames: ['get_weather'],
    })) as UnloadToolOutput;
    expect(unloaded).toMatchObject({ success: false, unloaded: [] });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ threadId: 't', operation: 'store.update' }),
    );
    expect(await activeIds(session)).toEqual(['get_time', 'get_weather']);
    // A failed touch only loses a recency hint: the call still goes ahead.
    expect(await session.isActive('get_weather')).toBe(true);
  });

  it('reads a malformed report from a store as empty lists', async () => {
    const store: LoadedToolsStore = {
      get: async () => undefined,
      set: async () => {},
      delete: async () => {},
      update: async () => ({ loaded: 'get_weather', evicted: [1, null] }) as never,
    };
    const session = engineFor({ storage: store }).createSession({ threadId: 't' });
    const loaded = (await run(session, 'load_tool', {
      toolNames: ['get_weather'],
    })) as LoadToolOutput;
    expect(loaded.loadedCount).toBe(0);
    expect(loaded.evicted).toBeUndefined();
  });

  it('rejects a storage whose update is not a function', () => {
    const store = { get: async () => undefined, set: async () => {}, delete: async () => {} };
    expect(() => engineFor({ storage: { ...store, update: 'yes' } as never })).toThrow(/storage/);
  });
});

describe('createMemoryStore().update', () => {
  it('starts an expired thread empty and counts towards maxThreads', async () => {
    let now = 0;
    const store = createMemoryStore({ ttl: 100, maxThreads: 2, now: () => now });
    await store.update('a', { type: 'load', ids: ['x'], at: now });
    now = 500;
    expect(await store.update('a', { type: 'load', ids: ['x', 'y'], at: now })).toEqual({
      loaded: ['x', 'y'],
      alreadyLoaded: [],
      evicted: [],
      unloaded: [],
    });
    await store.update('b', { type: 'load', ids: ['x'], at: now });
    await store.update('c', { type: 'load', ids: ['x'], at: now });
    expect(store.getStateStats().threadCount).toBe(2);
    expect(await store.get('a')).toBeUndefined();
    store.dispose();
  });
});
