import type {
  LoadedToolEntry,
  LoadedToolsChange,
  LoadedToolsOperation,
} from './loaded-tools-store';

/**
 * Applies an operation to a thread's entries in place and reports what it did: the reference
 * semantics of {@link LoadedToolsOperation}. The memory store and the engine's get/set path run
 * it; a store that applies operations elsewhere (a Redis Lua script) must give the same result.
 *
 * @param entries - the thread's loaded tools in load order; changed in place
 * @param operation - the change to apply
 * @returns what was loaded, already loaded, evicted or unloaded
 * @example
 * const entries: LoadedToolEntry[] = [];
 * applyLoadedToolsOperation(entries, { type: 'load', ids: ['get_weather'], at: Date.now() });
 * // entries: [{ id: 'get_weather', usedAt: ... }]
 */
export function applyLoadedToolsOperation(
  entries: LoadedToolEntry[],
  operation: LoadedToolsOperation,
): LoadedToolsChange {
  const change: LoadedToolsChange = { loaded: [], alreadyLoaded: [], evicted: [], unloaded: [] };
  switch (operation.type) {
    case 'load': {
      const at = latestUse(entries, operation.at);
      const positions = new Map<string, number>();
      entries.forEach((entry, position) => {
        if (!positions.has(entry.id)) positions.set(entry.id, position);
      });
      for (const id of operation.ids) {
        const position = positions.get(id);
        if (position !== undefined) {
          entries[position]!.usedAt = at;
          change.alreadyLoaded.push(id);
        } else {
          positions.set(id, entries.length);
          entries.push({ id, usedAt: at });
          change.loaded.push(id);
        }
      }
      const max = operation.maxLoadedTools;
      const excess = max === undefined ? 0 : entries.length - max;
      if (!(excess > 0)) break;
      // The least recently used go first, the earliest loaded among equals: all at once, which
      // gives what evicting one at a time gives, in O(n log n) instead of O(n²) for a thread far
      // over its budget (a budget lowered since, a store fed directly).
      const oldestFirst = entries
        .map((entry, position) => ({ entry, position }))
        .sort(
          (left, right) => left.entry.usedAt - right.entry.usedAt || left.position - right.position,
        )
        .slice(0, excess)
        .map(({ entry }) => entry);
      const gone = new Set(oldestFirst);
      change.evicted = oldestFirst.map((entry) => entry.id);
      replaceAll(
        entries,
        entries.filter((entry) => !gone.has(entry)),
      );
      if (change.evicted.length > 0) {
        const evicted = new Set(change.evicted);
        change.loaded = change.loaded.filter((id) => !evicted.has(id));
        change.alreadyLoaded = change.alreadyLoaded.filter((id) => !evicted.has(id));
      }
      break;
    }
    case 'unload': {
      const wanted = new Set(operation.ids);
      const kept: LoadedToolEntry[] = [];
      for (const entry of entries) {
        if (wanted.has(entry.id)) change.unloaded.push(entry.id);
        else kept.push(entry);
      }
      replaceAll(entries, kept);
      break;
    }
    case 'touch': {
      const entry = entries.find((candidate) => candidate.id === operation.id);
      if (entry) entry.usedAt = latestUse(entries, operation.at);
      break;
    }
  }
  return change;
}

/** Replaces a list's items in place; a spread of 100,000 items would overflow the call stack. */
function replaceAll(entries: LoadedToolEntry[], items: readonly LoadedToolEntry[]): void {
  entries.length = 0;
  for (const item of items) entries.push(item);
}

/**
 * The time a load or touch counts as: its own, or the thread's latest use when that is later.
 * Processes' clocks differ and a change can reach the store after a later one; without this a
 * tool just loaded could count as the least recently used and be evicted at once.
 */
function latestUse(entries: readonly LoadedToolEntry[], at: number): number {
  let latest = at;
  for (const entry of entries) if (entry.usedAt > latest) latest = entry.usedAt;
  return latest;
}
