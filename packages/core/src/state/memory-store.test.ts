import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store';

describe('createMemoryStore', () => {
  it('writes no thread for a change that changes nothing', async () => {
    const store = createMemoryStore({ ttl: 0 });
    await store.update('nothing', { type: 'unload', ids: ['a'] });
    await store.update('nothing', { type: 'touch', id: 'a', at: 5 });
    await store.update('nothing', { type: 'load', ids: [], at: 5 });
    expect(store.getStateStats().threadCount).toBe(0);
    expect(await store.get('nothing')).toBeUndefined();
  });

  it('keeps every real thread however many changes of nothing come past maxThreads', async () => {
    const store = createMemoryStore({ ttl: 0, maxThreads: 3 });
    for (const thread of ['a', 'b', 'c'])
      await store.update(thread, { type: 'load', ids: [`${thread}-tool`], at: 1 });
    for (let request = 0; request < 100; request++) {
      await store.update(`request-${request}`, { type: 'unload', ids: ['a-tool'] });
      await store.update(`request-${request}`, { type: 'touch', id: 'b-tool', at: 2 });
    }
    expect(store.getStateStats().threadCount).toBe(3);
    for (const thread of ['a', 'b', 'c'])
      expect((await store.get(thread))?.tools).toEqual([{ id: `${thread}-tool`, usedAt: 1 }]);
  });

  it('counts a change of nothing on a live thread as a read, and still writes real changes', async () => {
    let now = 0;
    const store = createMemoryStore({ ttl: 100, maxThreads: 2, now: () => now });
    await store.update('old', { type: 'load', ids: ['x'], at: 0 });
    await store.update('new', { type: 'load', ids: ['y'], at: 0 });
    now = 50;
    // Unloading what `old` does not have changes nothing, but `old` was used: `new` goes first.
    expect(await store.update('old', { type: 'unload', ids: ['y'] })).toMatchObject({
      unloaded: [],
    });
    await store.update('third', { type: 'load', ids: ['z'], at: 50 });
    expect(await store.get('new')).toBeUndefined();
    expect((await store.get('old'))?.tools).toEqual([{ id: 'x', usedAt: 0 }]);
    // A touch of a loaded tool is a change (its time), and is kept.
    await store.update('old', { type: 'touch', id: 'x', at: 60 });
    expect((await store.get('old'))?.tools).toEqual([{ id: 'x', usedAt: 60 }]);
    store.dispose();
  });
});
