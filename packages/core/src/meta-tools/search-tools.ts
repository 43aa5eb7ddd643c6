import { searchIndexes } from '../search/search-indexes';
import { AUTO_LOAD_ACTIVATION_TYPE, AUTO_LOAD_ACTIVATION_VERSION } from '../state/context-state';
import { allowedHits, shadowFilters } from './allowed-hits';
import { echoQuery } from './echo-name';
import { fusedRanker } from './fused-ranking';
import { inputProblem } from './input-problem';
import { evictionNote, loadNames } from './load-names';
import type { MetaToolHost } from './meta-tool-host';
import {
  MAX_SEARCH_LIMIT,
  type SearchToolsOutput,
  type SearchToolsResult,
  searchToolsInput,
} from './meta-tool-schemas';
import { truncateDescription } from './meta-tool-texts';
import type { ToolDefinition } from './meta-tool-types';
import { inlineDefinitions, toolDefinitions } from './tool-definitions';

/** What each argument of `search_tools` takes, for the answer to a malformed call. */
const SEARCH_TOOLS_ARGUMENTS = {
  query: 'a few keywords describing the task, or a tool name (a string)',
  limit: `a whole number from 1 to ${MAX_SEARCH_LIMIT}, or left out`,
};

/**
 * Ranks the request's tools and keeps those the `search` filter allows, and with `loadable` also
 * the `load` filter (autoLoad shows only what it can load). Candidates are checked in growing
 * windows, in rank order, so an async filter runs for few more tools than are shown.
 * @returns the results, and how many matches the search allowed but the load filter did not
 */
export async function rankAllowed<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  query: string,
  topK: number,
  options: { loadable?: boolean } = {},
): Promise<{ results: SearchToolsResult[]; unloadable: number }> {
  const { minScore } = session.settings;
  await session.prepareDeferred();
  const { indexes } = session;
  const indexFilters = shadowFilters(session);
  const total = indexes.reduce((sum, index) => sum + index.size, 0);
  let unloadable = 0;
  const allows = async (id: string): Promise<boolean> => {
    if (!(await session.allows(id, 'search'))) return false;
    if (!options.loadable || (await session.allows(id, 'load'))) return true;
    unloadable++;
    return false;
  };
  // With `embed`, BM25F's ranking fused with the embeddings'; without, or when they fail, BM25F's.
  const fused = await fusedRanker(session, query, indexFilters);
  const rank =
    fused ??
    ((window: number) =>
      searchIndexes(indexes, query, {
        topK: window,
        minScore,
        ...(indexFilters && { indexFilters }),
      }));
  const hits = await allowedHits(rank, total, topK, allows);
  const results = hits.map((hit) => ({
    name: hit.id,
    description: truncateDescription(
      session.lookup(hit.id)?.descriptor.description ?? hit.description,
    ),
    score: Math.round(hit.score * 100) / 100,
  }));
  return { results, unloadable };
}

/** Executes `search_tools` for a session. */
export async function searchTools<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  input: unknown,
): Promise<SearchToolsOutput> {
  const parsed = searchToolsInput.safeParse(input);
  if (!parsed.success) {
    return {
      results: [],
      success: false,
      message: inputProblem('search_tools', SEARCH_TOOLS_ARGUMENTS, parsed.error, input),
    };
  }
  const query = parsed.data.query;
  if (query.trim() === '') {
    return {
      results: [],
      message:
        'No tools found: the query is empty. Describe the task in a few keywords, e.g. "send slack message".',
    };
  }
  const topK = parsed.data.limit ?? session.settings.topK;
  const { autoLoad } = session.settings;
  const { results, unloadable } = await rankAllowed(session, query, topK, { loadable: autoLoad });
  // The unmatched words cost a second pass over the query: worked out only for a handler.
  if (session.settings.onSearch !== undefined) {
    session.emit('onSearch', {
      threadId: session.threadId,
      query,
      results: results.map(({ name, score }) => ({ name, score })),
      unmatchedTerms: unmatchedTerms(session, query),
    });
  }
  const echoed = echoQuery(query);
  if (results.length === 0) {
    return {
      results,
      message:
        unloadable > 0
          ? `No tools available to load matching "${echoed}". Try other keywords.`
          : `No tools found matching "${echoed}". Try other keywords: the action, the object, or the service's name.`,
    };
  }
  if (!autoLoad) {
    if (session.expose !== 'proxy' || session.settings.definitions === 0) {
      return {
        results,
        message: `Found ${results.length} tool(s). Call load_tool with the exact names you need.`,
      };
    }
    // Under proxy the best results come with their definitions: call_tool runs one next.
    const tools = await bestDefinitions(session, results);
    return {
      results,
      ...(tools.length > 0 && { tools }),
      message:
        tools.length === 0
          ? `Found ${results.length} tool(s). Load one with load_tool for its input schema, then run it with call_tool.`
          : `Found ${results.length} tool(s); tools has the input schemas of ${tools.map((tool) => tool.name).join(', ')}. Run one with call_tool${tools.length < results.length ? ', or load_tool another for its schema' : ''}.`,
    };
  }
  const outcome = await loadNames(
    session,
    results.map((result) => result.name),
    'search_tools',
  );
  if (outcome.failed) {
    return {
      results,
      message: `Found ${results.length} tool(s), but they could not be loaded right now; try again.`,
    };
  }
  const evicted = new Set(outcome.evicted);
  const loaded = results.map((result) => result.name).filter((name) => !evicted.has(name));
  const already = outcome.alreadyLoaded.filter((name) => !evicted.has(name));
  const proxy = session.expose === 'proxy';
  return {
    results,
    activation: { type: AUTO_LOAD_ACTIVATION_TYPE, version: AUTO_LOAD_ACTIVATION_VERSION, loaded },
    ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
    // Under proxy the loaded tools never join the model's tools: their definitions come here.
    ...(proxy && { tools: toolDefinitions(session, loaded) }),
    message:
      `Found and loaded ${loaded.length} tool(s): ${loaded.join(', ')}. ${proxy ? 'Run them with call_tool, as their input schemas in tools describe.' : 'Call them directly from your next step.'}` +
      (already.length > 0 ? ` These were already loaded: ${already.join(', ')}.` : '') +
      evictionNote(outcome.evicted),
  };
}

/**
 * The definitions of the first `search.definitions` results the `load` filter allows (and that
 * are not too large to repeat), in rank order.
 */
async function bestDefinitions<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  results: readonly SearchToolsResult[],
): Promise<ToolDefinition[]> {
  const wanted = session.settings.definitions;
  const names: string[] = [];
  for (const { name } of results) {
    if (names.length === wanted) break;
    if (await session.allows(name, 'load')) names.push(name);
  }
  return inlineDefinitions(session, names);
}

function unmatchedTerms<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  query: string,
): string[] {
  const [first, ...rest] = session.indexes.map((index) => index.unmatchedTerms(query));
  return (first ?? []).filter((word) => rest.every((other) => other.includes(word)));
}
