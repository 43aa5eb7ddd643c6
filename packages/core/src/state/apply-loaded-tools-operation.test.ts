import fc from 'fast-check';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { applyLoadedToolsOperation } from './apply-loaded-tools-operation';
import type { LoadedToolEntry, LoadedToolsOperation } from './loaded-tools-store';

describe('applyLoadedToolsOperation', () => {
  it('appends new ids in order and refreshes loaded ones without moving them', () => {
    const entries: LoadedToolEntry[] = [{ id: 'a', usedAt: 1 }];
    const change = applyLoadedToolsOperation(entries, {
      type: 'load',
      ids: ['b', 'a', 'c'],
      at: 5,
    });
    expect(change).toEqual({ loaded: ['b', 'c'], alreadyLoaded: ['a'], evicted: [], unloaded: [] });
    expect(entries).toEqual([
      { id: 'a', usedAt: 5 },
      { id: 'b', usedAt: 5 },
      { id: 'c', usedAt: 5 },
    ]);
  });

  it('evicts the least recently used, the earliest loaded among equals, and reports only survivors', () => {
    const entries: LoadedToolEntry[] = [
      { id: 'old', usedAt: 1 },
      { id: 'fresh', usedAt: 3 },
      { id: 'mid', usedAt: 2 },
    ];
    const change = applyLoadedToolsOperation(entries, {
      type: 'load',
      ids: ['x', 'y', 'z'],
      at: 4,
      maxLoadedTools: 2,
    });
    expect(change.evicted).toEqual(['old', 'mid', 'fresh', 'x']);
    expect(change.loaded).toEqual(['y', 'z']);
    expect(entries.map((entry) => entry.id)).toEqual(['y', 'z']);
  });

  it('unloads in load order and touches only loaded ids', () => {
    const entries: LoadedToolEntry[] = [
      { id: 'a', usedAt: 1 },
      { id: 'b', usedAt: 1 },
      { id: 'c', usedAt: 1 },
    ];
    expect(applyLoadedToolsOperation(entries, { type: 'touch', id: 'b', at: 9 })).toEqual({
      loaded: [],
      alreadyLoaded: [],
      evicted: [],
      unloaded: [],
    });
    applyLoadedToolsOperation(entries, { type: 'touch', id: 'nope', at: 9 });
    expect(entries).toEqual([
      { id: 'a', usedAt: 1 },
      { id: 'b', usedAt: 9 },
      { id: 'c', usedAt: 1 },
    ]);
    expect(
      applyLoadedToolsOperation(entries, { type: 'unload', ids: ['c', 'nope', 'a'] }).unloaded,
    ).toEqual(['a', 'c']);
    expect(entries).toEqual([{ id: 'b', usedAt: 9 }]);
  });

  it('keeps ids unique, within the budget, and its report consistent with the entries', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', '__proto__', 'constructor');
    const operation: fc.Arbitrary<LoadedToolsOperation> = fc.oneof(
      fc.record({
        type: fc.constant('load' as const),
        ids: fc.uniqueArray(id, { maxLength: 4 }),
        at: fc.integer({ min: 0, max: 20 }),
        maxLoadedTools: fc.constant(3),
      }),
      fc.record({ type: fc.constant('unload' as const), ids: fc.array(id, { maxLength: 3 }) }),
      fc.record({ type: fc.constant('touch' as const), id, at: fc.integer({ min: 0, max: 20 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const entries: LoadedToolEntry[] = [];
        for (const next of operations) {
          const before = new Set(entries.map((entry) => entry.id));
          const change = applyLoadedToolsOperation(entries, next);
          const ids = entries.map((entry) => entry.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids.length).toBeLessThanOrEqual(3);
          for (const loaded of [...change.loaded, ...change.alreadyLoaded])
            expect(ids).toContain(loaded);
          for (const gone of [...change.evicted, ...change.unloaded]) {
            expect(ids).not.toContain(gone);
            expect(before.has(gone) || next.type === 'load').toBe(true);
          }
        }
      }),
    );
  });
});
