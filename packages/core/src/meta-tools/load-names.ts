import { StoreError, type ToolSearchSession } from '../engine/tool-search-session';

export interface LoadOutcome {
  loaded: string[];
  alreadyLoaded: string[];
  notFound: string[];
  evicted: string[];
  failed: boolean;
}

/**
 * Loads the tools the names stand for (an id, or the key a tool is listed under) when they exist
 * and pass the `load` filter, within the budget; reports the rest as not found. Loaded tools are
 * reported, and stored, by id; a tool asked for twice (by key and by id) counts once.
 */
export async function loadNames<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  names: string[],
  via: 'load_tool' | 'search_tools',
): Promise<LoadOutcome> {
  const outcome: LoadOutcome = {
    loaded: [],
    alreadyLoaded: [],
    notFound: [],
    evicted: [],
    failed: false,
  };
  const pinned = new Set(session.engine.options.alwaysLoaded ?? []);
  const candidates: string[] = [];
  const ids = names.map((name) => session.lookup(name)?.descriptor.id);
  const verdicts = await Promise.all(
    ids.map((id) => (id === undefined ? false : session.allows(id, 'load'))),
  );
  const seen = new Set<string>();
  names.forEach((name, position) => {
    const id = ids[position];
    if (id === undefined) {
      session.deny(name, 'load', 'unknown-tool');
      outcome.notFound.push(name);
    } else if (!verdicts[position]) {
      outcome.notFound.push(name);
    } else if (seen.has(id)) {
      // The same tool under its other name.
    } else if (pinned.has(id)) {
      seen.add(id);
      outcome.alreadyLoaded.push(id);
    } else {
      seen.add(id);
      candidates.push(id);
    }
  });
  if (candidates.length === 0) return outcome;
  const max = session.engine.options.maxLoadedTools;
  try {
    await session.update((entries) => {
      const now = Date.now();
      for (const name of candidates) {
        const existing = entries.find((entry) => entry.id === name);
        if (existing) {
          existing.usedAt = now;
          outcome.alreadyLoaded.push(name);
        } else {
          entries.push({ id: name, usedAt: now });
          outcome.loaded.push(name);
        }
      }
      if (max !== undefined) {
        while (entries.length > max) {
          let oldest = 0;
          for (let position = 1; position < entries.length; position++) {
            if (entries[position]!.usedAt < entries[oldest]!.usedAt) oldest = position;
          }
          const [evicted] = entries.splice(oldest, 1);
          outcome.evicted.push(evicted!.id);
        }
      }
    });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return { ...outcome, loaded: [], alreadyLoaded: [], evicted: [], failed: true };
  }
  const evicted = new Set(outcome.evicted);
  outcome.loaded = outcome.loaded.filter((name) => !evicted.has(name));
  outcome.alreadyLoaded = outcome.alreadyLoaded.filter((name) => !evicted.has(name));
  if (outcome.loaded.length > 0)
    session.emit('onLoad', { threadId: session.threadId, toolNames: outcome.loaded, via });
  if (outcome.evicted.length > 0)
    session.emit('onEvict', {
      threadId: session.threadId,
      toolNames: outcome.evicted,
      reason: 'budget',
    });
  return outcome;
}

/** The sentence telling the model which tools the budget unloaded. */
export function evictionNote(evicted: string[]): string {
  return evicted.length > 0
    ? ` To stay within the tool budget these were unloaded: ${evicted.join(', ')}.`
    : '';
}
