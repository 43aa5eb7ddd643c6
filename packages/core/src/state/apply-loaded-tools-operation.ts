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
      const positions = new Map<string, number>();
      entries.forEach((entry, position) => {
        if (!positions.has(entry.id)) positions.set(entry.id, position);
      });
      for (const id of operation.ids) {
        const position = positions.get(id);
        if (position !== undefined) {
          entries[position]!.usedAt = operation.at;
          change.alreadyLoaded.push(id);
        } else {
          positions.set(id, entries.length);
          entries.push({ id, usedAt: operation.at });
          change.loaded.push(id);
        }
      }
      const max = operation.maxLoadedTools;
      if (max === undefined) break;
      while (entries.length > max) {
        let oldest = 0;
        for (let position = 1; position < entries.length; position++) {
          if (entries[position]!.usedAt < entries[oldest]!.usedAt) oldest = position;
        }
        change.evicted.push(entries.splice(oldest, 1)[0]!.id);
      }
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
      entries.splice(0, entries.length, ...kept);
      break;
    }
    case 'touch': {
      const entry = entries.find((candidate) => candidate.id === operation.id);
      if (entry) entry.usedAt = operation.at;
      break;
    }
  }
  return change;
}
