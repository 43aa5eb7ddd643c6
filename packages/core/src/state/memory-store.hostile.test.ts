/** Hostile thread ids and budgets for the memory store: prototype names, huge ids, 100,000 loads. */
import { LONE_SURROGATES, MANY_NAMES, ONE_MB } from 'tool-search-testing/hostile-inputs';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store';

/** Generous: a hang guard on a shared 2-core machine, never a speed gate. */
const SLOW = 60_000;

describe('createMemoryStore under hostile thread ids', () => {
  it.each(['__proto__', 'constructor', 'hasOwnProperty', '', ONE_MB, LONE_SURROGATES])(
    'keeps the thread %# to itself',
    async (threadId) => {
      const store = createMemoryStore();
      await store.update(threadId, { type: 'load', ids: ['a'], at: 1 });
      expect((await store.get(threadId))?.tools.map((entry) => entry.id)).toEqual(['a']);
      expect(await store.get('other')).toBeUndefined();
      expect(({} as Record<string, unknown>).a).toBeUndefined();
    },
  );
});

describe('createMemoryStore under a thread far over its budget', () => {
  it(
    'loads 100,000 ids within a budget of 3, evicting the rest at once, within its time',
    async () => {
      const store = createMemoryStore();
      const change = await store.update('thread', {
        type: 'load',
        ids: MANY_NAMES,
        at: 1,
        maxLoadedTools: 3,
      });
      expect(change.loaded).toEqual(MANY_NAMES.slice(-3));
      expect(change.evicted).toEqual(MANY_NAMES.slice(0, -3));
    },
    SLOW,
  );

  it(
    'unloads one id of 100,000 loaded ones',
    async () => {
      const store = createMemoryStore();
      await store.update('thread', { type: 'load', ids: MANY_NAMES, at: 1 });
      const change = await store.update('thread', { type: 'unload', ids: ['tool_0'] });
      expect(change.unloaded).toEqual(['tool_0']);
      expect((await store.get('thread'))?.tools).toHaveLength(MANY_NAMES.length - 1);
    },
    SLOW,
  );
});
