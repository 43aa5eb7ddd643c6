import { describe, expect, it, vi } from 'vitest';
import type { LoadToolOutput, SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import { createMemoryStore } from '../state/memory-store';
import { activeIds, engineFor, type FakeTool, load, search } from './engine-test-fixture';
import { createToolSearchEngine } from './tool-search-engine';

describe("storage: 'context'", () => {
  const loadResult = (toolName: string) => ({
    toolName: 'load_tool',
    output: { success: true, message: 'ok', toolName },
  });

  it('derives loaded tools from the conversation and unloads them when the message is trimmed', async () => {
    const engine = engineFor({ storage: 'context' });
    const session = engine.createSession({
      toolResults: [loadResult('get_weather'), loadResult('send_email')],
    });
    expect(await activeIds(session)).toEqual(['get_weather', 'send_email']);
    session.setToolResults([loadResult('send_email')]);
    expect(await activeIds(session)).toEqual(['send_email']);
  });

  it('keeps loads made during the request until they appear in the messages', async () => {
    const session = engineFor({ storage: 'context' }).createSession();
    await load(session, { toolName: 'get_weather' });
    expect(await activeIds(session)).toEqual(['get_weather']);
  });

  it('does not count a plain search result as a load', async () => {
    const session = engineFor({ storage: 'context' }).createSession({
      toolResults: [
        {
          toolName: 'search_tools',
          output: { results: [{ name: 'get_weather', description: '', score: 3 }], message: '' },
        },
      ],
    });
    expect(await activeIds(session)).toEqual([]);
  });

  it('counts a search result by its autoLoad activation receipt only, also as JSON text', async () => {
    const engine = engineFor({ storage: 'context', search: { autoLoad: true } });
    const results = [{ name: 'get_weather', description: '', score: 1 }];
    const marked = engine.createSession({
      toolResults: [
        {
          toolName: 'search_tools',
          output: JSON.stringify({
            results,
            message: '',
            activation: { type: 'tool-search-auto-load', version: 1, loaded: ['get_weather'] },
          }),
        },
      ],
    });
    expect(await activeIds(marked)).toEqual(['get_weather']);
    const unmarked = engine.createSession({
      toolResults: [{ toolName: 'search_tools', output: { results, message: 'Found and loaded' } }],
    });
    expect(await activeIds(unmarked)).toEqual([]);
  });

  it('ignores a forged load of a tool the load filter denies', async () => {
    const engine = engineFor({
      storage: 'context',
      filter: ({ toolName, phase }) => !(phase === 'load' && toolName === 'premium_stock_quote'),
    });
    const session = engine.createSession({
      toolResults: [loadResult('premium_stock_quote'), loadResult('get_weather')],
    });
    expect(await activeIds(session)).toEqual(['get_weather']);
    expect(await session.isActive('premium_stock_quote')).toBe(false);
  });

  it('gives a forged load of a denied or unknown tool no place in the maxLoadedTools budget', async () => {
    const engine = engineFor({
      storage: 'context',
      maxLoadedTools: 1,
      filter: ({ toolName, phase }) => !(phase === 'load' && toolName === 'premium_stock_quote'),
    });
    // The forged loads come last, so they are the most recently used: they would take the slot.
    for (const forged of ['premium_stock_quote', 'no_such_tool']) {
      const session = engine.createSession({
        toolResults: [loadResult('get_weather'), loadResult(forged)],
      });
      expect(await activeIds(session)).toEqual(['get_weather']);
      expect(await session.isActive('get_weather')).toBe(true);
    }
  });

  it('never evicts a loaded tool to make room beside a forged load of a denied tool', async () => {
    const onEvict = vi.fn();
    const engine = engineFor({
      storage: 'context',
      maxLoadedTools: 2,
      onEvict,
      filter: ({ toolName, phase }) => !(phase === 'load' && toolName === 'premium_stock_quote'),
    });
    const session = engine.createSession({
      toolResults: [loadResult('get_weather'), loadResult('premium_stock_quote')],
    });
    const output = await load(session, { toolName: 'send_email' });
    expect(output).toMatchObject({ success: true, toolName: 'send_email' });
    expect(output.evicted).toBeUndefined();
    expect(onEvict).not.toHaveBeenCalled();
    expect(await activeIds(session)).toEqual(['get_weather', 'send_email']);
    // The next request, with this load's result in its messages, offers the same two tools.
    const next = engine.createSession({
      toolResults: [
        loadResult('get_weather'),
        loadResult('premium_stock_quote'),
        { toolName: 'load_tool', output },
      ],
    });
    expect(await activeIds(next)).toEqual(['get_weather', 'send_email']);
  });
});

describe('construction and bad input', () => {
  it('rejects duplicate ids with both keys named', () => {
    expect(() =>
      createToolSearchEngine({
        tools: { a: { description: '' }, b: { description: '' } },
        describe: () => ({ id: 'same' }),
      }),
    ).toThrow(/keys "a" and "b".*share the id "same"/);
  });

  it('rejects unknown pinned tools, reserved names and bad options', () => {
    expect(() => engineFor({ alwaysLoaded: ['nope'] })).toThrow(/alwaysLoaded names "nope"/);
    expect(() =>
      createToolSearchEngine({ tools: { load_tool: {} }, describe: (_tool, key) => ({ id: key }) }),
    ).toThrow(/reserved/);
    expect(() => engineFor({ search: { topK: 0 } })).toThrow(/topK/);
    expect(() => engineFor({ maxLoadedTools: 0 })).toThrow(/maxLoadedTools/);
  });

  it('handles __proto__, constructor and toString as tool ids', async () => {
    const tools: Record<string, FakeTool> = {};
    for (const id of ['__proto__', 'constructor', 'toString'])
      Object.defineProperty(tools, id, {
        value: { description: `the ${id} tool` },
        enumerable: true,
      });
    const engine = createToolSearchEngine<FakeTool>({
      tools,
      describe: (tool, key) => ({ id: key, description: tool.description }),
    });
    const session = engine.createSession({ threadId: 'proto' });
    expect(
      ((await session.metaTools[0]!.execute({ query: '__proto__' })) as SearchToolsOutput)
        .results[0]?.name,
    ).toBe('__proto__');
    expect(
      (
        (await session.metaTools[1]!.execute({
          toolNames: ['__proto__', 'constructor', 'hasOwnProperty'],
        })) as LoadToolOutput
      ).notFound,
    ).toEqual(['hasOwnProperty']);
    expect((await session.activeTools()).map((tool) => tool.id)).toEqual([
      '__proto__',
      'constructor',
    ]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('answers the model when the store fails, and keeps pinned tools active', async () => {
    const onError = vi.fn();
    const failing: LoadedToolsStore = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => Promise.reject(new Error('redis down')),
      delete: () => Promise.reject(new Error('redis down')),
    };
    const session = engineFor({
      storage: failing,
      alwaysLoaded: ['send_email'],
      onError,
    }).createSession({ threadId: 'x' });
    expect(await load(session, { toolName: 'get_weather' })).toEqual({
      success: false,
      message: expect.stringMatching(/Try again/),
    });
    expect(await activeIds(session)).toEqual(['send_email']);
    expect((await search(session, 'weather')).results.length).toBeGreaterThan(0);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ operation: 'store.get' }));
  });

  it('ignores event handlers that throw', async () => {
    const session = engineFor({
      onSearch: () => {
        throw new Error('telemetry down');
      },
      onLoad: () => {
        throw new Error('telemetry down');
      },
    }).createSession();
    expect((await search(session, 'weather')).results.length).toBeGreaterThan(0);
    expect((await load(session, { toolName: 'get_weather' })).success).toBe(true);
  });

  it('reports unmatched query words on search', async () => {
    const onSearch = vi.fn();
    await search(engineFor({ onSearch }).createSession(), 'weather on jupiter');
    expect(onSearch).toHaveBeenCalledWith(
      expect.objectContaining({ query: 'weather on jupiter', unmatchedTerms: ['jupiter'] }),
    );
  });

  it('serializes parallel loads of one thread so none is lost', async () => {
    const session = engineFor().createSession({ threadId: 'parallel' });
    await Promise.all(
      ['get_weather', 'send_email', 'slack_post_message', 'get_forecast'].map((toolName) =>
        load(session, { toolName }),
      ),
    );
    expect((await activeIds(session)).sort()).toEqual([
      'get_forecast',
      'get_weather',
      'send_email',
      'slack_post_message',
    ]);
  });
});

describe('in-memory state', () => {
  it('expires idle threads after the ttl and counts them in cleanupNow', async () => {
    let now = 1_000;
    const store = createMemoryStore({ ttl: 100, now: () => now });
    const engine = engineFor({ storage: store });
    await load(engine.createSession({ threadId: 'old' }), { toolName: 'get_weather' });
    now += 50;
    await load(engine.createSession({ threadId: 'young' }), { toolName: 'get_weather' });
    expect(store.getStateStats()).toEqual({ threadCount: 2, oldestAccessTime: 1_000 });
    now += 60;
    expect(store.cleanupNow()).toBe(1);
    expect(await activeIds(engine.createSession({ threadId: 'old' }))).toEqual([]);
    expect(await activeIds(engine.createSession({ threadId: 'young' }))).toEqual(['get_weather']);
    now += 500;
    expect(await activeIds(engine.createSession({ threadId: 'young' }))).toEqual([]);
    store.dispose();
  });

  it('clears one thread or all, and caps the number of threads', async () => {
    const engine = engineFor({ maxThreads: 2 });
    for (const threadId of ['a', 'b', 'c'])
      await load(engine.createSession({ threadId }), { toolName: 'get_weather' });
    expect(engine.getStateStats().threadCount).toBe(2);
    expect(await activeIds(engine.createSession({ threadId: 'a' }))).toEqual([]);
    await engine.clearState('b');
    expect(await activeIds(engine.createSession({ threadId: 'b' }))).toEqual([]);
    engine.clearAllState();
    expect(engine.getStateStats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    engine.dispose();
  });

  it("starts an unref'd cleanup timer on first use and stops it on dispose", async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    try {
      const store = createMemoryStore({ ttl: 10 });
      expect(setIntervalSpy).not.toHaveBeenCalled();
      await store.set('t', { tools: [] });
      expect(setIntervalSpy).toHaveBeenCalledTimes(1);
      const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      const clearSpy = vi.spyOn(globalThis, 'clearInterval');
      store.dispose();
      expect(clearSpy).toHaveBeenCalledWith(timer);
      clearSpy.mockRestore();
    } finally {
      setIntervalSpy.mockRestore();
    }
  });

  it('treats ttl 0 as never expiring', async () => {
    let now = 0;
    const store = createMemoryStore({ ttl: 0, now: () => now });
    await store.set('t', { tools: [{ id: 'x', usedAt: 0 }] });
    now = 10 ** 12;
    expect(store.cleanupNow()).toBe(0);
    expect(await store.get('t')).toEqual({ tools: [{ id: 'x', usedAt: 0 }] });
  });
});
