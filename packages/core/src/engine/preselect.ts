import { allowedHits, shadowFilters } from '../meta-tools/allowed-hits';
import { loadNames } from '../meta-tools/load-names';
import { searchIndexes } from '../search/search-indexes';
import { ToolResolutionError } from './deferred-tools';
import type { ToolSearchSession } from './tool-search-session';

/** Options of {@link preselectTools}. */
export interface PreselectOptions {
  /**
   * Only tools scoring above this are loaded. Scores are BM25F plus id boosts, as `search_tools`
   * shows them without `embed` and `tool-search search` prints them; pick the value from
   * `tool-search eval` figures (the package README says how).
   */
  minScore: number;
  /**
   * Tools loaded per message at most, best first.
   * @default the engine's `search.topK`
   */
  maxTools?: number;
}

/** What a preselection did. Nothing in it is an error to the model: the agent goes on as usual. */
export interface PreselectOutcome {
  /** Tools it loaded, by id. */
  loaded: string[];
  /** Tools it chose that were loaded already (or pinned). */
  alreadyLoaded: string[];
  /** Names it chose but did not load: unknown, or refused by the `load` filter. */
  skipped: string[];
  /** Tools evicted to stay within `maxLoadedTools`. */
  evicted: string[];
  /**
   * What failed, if anything: the store or the deferred source (then nothing was loaded), or a
   * deferred tool's `resolve` (that tool is in `skipped`; the others were loaded). The engine
   * reported it through `onError` too.
   */
  error?: unknown;
}

/**
 * Loads the tools the request will most likely need before the model's first step, from the
 * user's message alone, with no model call: the request's tools (static, request-resolved and
 * deferred) are ranked against the message as a search query, and those scoring above
 * `minScore` that the `search` and `load` filters allow are loaded, best first. A request whose
 * tools are obvious then needs no search round trip; the meta-tools stay available for anything
 * it missed. Never throws for a failure of the request's tools or store (see `error`).
 * @param session - the request's session (its first step)
 * @param message - the user's message
 * @param options - the score to clear and how many tools at most
 * @throws a `RangeError` when `minScore` is not a number or `maxTools` not a positive integer
 * @example
 * const session = engine.createSession({ threadId });
 * await preselectTools(session, userMessage, { minScore: 6 });
 * const tools = await session.activeTools(); // the preselected tools among them
 */
export async function preselectTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  message: string,
  options: PreselectOptions,
): Promise<PreselectOutcome> {
  const { minScore, maxTools = session.engine.options.topK } = options ?? {};
  if (typeof minScore !== 'number' || Number.isNaN(minScore))
    throw new RangeError(`preselectTools: minScore must be a number, got ${String(minScore)}`);
  if (!(Number.isInteger(maxTools) && maxTools >= 1))
    throw new RangeError(`preselectTools: maxTools must be an integer >= 1, got ${maxTools}`);
  if (typeof message !== 'string' || message.trim() === '') return emptyOutcome();
  let chosen: string[];
  try {
    chosen = await rankMessage(session, message, minScore, maxTools);
  } catch (error) {
    return { ...emptyOutcome(), error };
  }
  return chosen.length === 0 ? emptyOutcome() : preloadTools(session, chosen);
}

/**
 * Loads tools chosen before the model's first step (a classifier's pick, an application's
 * routing), through the `load` filter and the budget like `load_tool`, and reports what it did
 * instead of throwing: a choice that cannot be loaded must not fail the request.
 * @param session - the request's session
 * @param names - ids or keys of the tools to load
 * @example
 * const outcome = await preloadTools(session, ['github_create_issue', 'github_list_issues']);
 */
export async function preloadTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  names: readonly string[],
): Promise<PreselectOutcome> {
  let wanted = [...new Set(names)].filter((name) => typeof name === 'string');
  const unresolved: string[] = [];
  let error: unknown;
  // A deferred tool that cannot be resolved is skipped; the others still load.
  while (wanted.length > 0) {
    try {
      const outcome = await loadNames(session, wanted, 'preselect');
      if (outcome.failed)
        return { ...emptyOutcome(), error: new Error('The loaded-tools store failed') };
      return {
        loaded: outcome.loaded,
        alreadyLoaded: outcome.alreadyLoaded,
        skipped: [...unresolved, ...outcome.notFound],
        evicted: outcome.evicted,
        ...(error !== undefined && { error }),
      };
    } catch (caught) {
      error = caught;
      if (!(caught instanceof ToolResolutionError)) return { ...emptyOutcome(), error };
      const failed = wanted.filter((name) => session.idOf(name) === caught.toolName);
      if (failed.length === 0) return { ...emptyOutcome(), error };
      unresolved.push(...failed);
      wanted = wanted.filter((name) => !failed.includes(name));
    }
  }
  return { ...emptyOutcome(), skipped: unresolved, error };
}

/**
 * The ids of the best tools above `minScore` that the `search` and `load` filters allow, checked
 * in rank order in growing windows, so a filter runs for few more tools than are chosen.
 */
async function rankMessage<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  message: string,
  minScore: number,
  maxTools: number,
): Promise<string[]> {
  await session.prepareDeferred();
  const { indexes } = session;
  const indexFilters = shadowFilters(session);
  const total = indexes.reduce((sum, index) => sum + index.size, 0);
  // BM25F alone: `minScore` is on its scale, whatever `embed` does for `search_tools`.
  const rank = (window: number) =>
    searchIndexes(indexes, message, {
      topK: window,
      minScore,
      ...(indexFilters && { indexFilters }),
    });
  const allows = async (id: string) =>
    (await session.allows(id, 'search')) && (await session.allows(id, 'load'));
  return (await allowedHits(rank, total, maxTools, allows)).map((hit) => hit.id);
}

function emptyOutcome(): PreselectOutcome {
  return { loaded: [], alreadyLoaded: [], skipped: [], evicted: [] };
}
