/**
 * The reference model of a loaded-tools store, as its contract says, for the model-based suites:
 * a thread's tools in load order, each with the time it was last used.
 */

/** One loaded tool of the model. */
export interface ModelEntry {
  id: string;
  usedAt: number;
}

/** What one load or unload did. */
export interface ModelChange {
  loaded: string[];
  alreadyLoaded: string[];
  evicted: string[];
  unloaded: string[];
}

/**
 * Loads ids as the store contract says: append new ones, refresh all, then evict the least
 * recently used while over `max`. A tool loaded and evicted by the same call is reported evicted
 * only.
 */
export function modelLoad(
  entries: ModelEntry[],
  ids: readonly string[],
  at: number,
  max: number | undefined,
): ModelChange {
  const change: ModelChange = { loaded: [], alreadyLoaded: [], evicted: [], unloaded: [] };
  for (const id of ids) {
    const entry = entries.find((candidate) => candidate.id === id);
    if (entry) {
      entry.usedAt = at;
      change.alreadyLoaded.push(id);
    } else {
      entries.push({ id, usedAt: at });
      change.loaded.push(id);
    }
  }
  while (max !== undefined && entries.length > max) {
    const oldest = entries.reduce((best, entry) => (entry.usedAt < best.usedAt ? entry : best));
    entries.splice(entries.indexOf(oldest), 1);
    change.evicted.push(oldest.id);
  }
  change.loaded = change.loaded.filter((id) => !change.evicted.includes(id));
  change.alreadyLoaded = change.alreadyLoaded.filter((id) => !change.evicted.includes(id));
  return change;
}

/** Unloads ids: drops the entries that are there, keeping the others in order. */
export function modelUnload(entries: ModelEntry[], ids: readonly string[]): ModelChange {
  const unloaded = entries.filter((entry) => ids.includes(entry.id)).map((entry) => entry.id);
  const kept = entries.filter((entry) => !ids.includes(entry.id));
  entries.splice(0, entries.length, ...kept);
  return { loaded: [], alreadyLoaded: [], evicted: [], unloaded };
}
