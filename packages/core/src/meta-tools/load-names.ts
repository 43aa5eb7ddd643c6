import { StoreError } from '../state/store-error';
import type { MetaToolHost } from './meta-tool-host';

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
 * @throws a `ToolResolutionError` when a deferred tool's `resolve` failed, and the deferred
 *   source's error when it had to be listed and could not be
 */
export async function loadNames<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  names: string[],
  via: 'load_tool' | 'search_tools' | 'call_tool' | 'preselect',
): Promise<LoadOutcome> {
  const outcome: LoadOutcome = {
    loaded: [],
    alreadyLoaded: [],
    notFound: [],
    evicted: [],
    failed: false,
  };
  const pinned = new Set(session.settings.alwaysLoaded ?? []);
  const candidates: string[] = [];
  await session.prepareDeferred(names);
  const ids = names.map((name) => session.idOf(name));
  const verdicts = await Promise.all(
    ids.map((id) => (id === undefined ? false : session.allows(id, 'load'))),
  );
  // A deferred tool that could not be resolved: the application's own error, rethrown so the
  // framework reports it as it reports a failing tool (as Mastra's load_tool does).
  for (const id of ids) {
    const failure = id === undefined ? undefined : session.resolutionError(id);
    if (failure) throw failure;
  }
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
  try {
    const change = await session.applyOperation({
      type: 'load',
      ids: candidates,
      at: Date.now(),
      maxLoadedTools: session.settings.maxLoadedTools,
    });
    outcome.loaded = change.loaded;
    outcome.alreadyLoaded.push(...change.alreadyLoaded);
    outcome.evicted = change.evicted;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return { ...outcome, loaded: [], alreadyLoaded: [], evicted: [], failed: true };
  }
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
