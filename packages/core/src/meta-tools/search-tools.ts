import type { ToolSearchSession } from '../engine/tool-search-session';
import { searchIndexes } from '../search/search-indexes';
import { evictionNote, loadNames } from './load-names';
import {
  type SearchToolsOutput,
  type SearchToolsResult,
  searchToolsInput,
} from './meta-tool-schemas';
import { truncateDescription } from './meta-tool-texts';

/** A query is echoed back to the model cut to this length. */
const MAX_ECHOED_QUERY = 80;

/**
 * Ranks the request's tools and keeps those the `search` filter allows. Candidates are checked in
 * growing windows, in rank order, so an async filter runs for few more tools than are shown.
 */
export async function rankAllowed<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  query: string,
  topK: number,
): Promise<SearchToolsResult[]> {
  const { minScore } = session.engine.options;
  const indexes = session.indexes;
  // Only with request-resolved tools can a static tool be shadowed; otherwise no per-hit check.
  const indexFilters =
    indexes.length > 1
      ? indexes.map((index) => (id: string) => !session.isShadowed(id, index))
      : undefined;
  const total = indexes.reduce((sum, index) => sum + index.size, 0);
  const allowed: SearchToolsResult[] = [];
  let checked = 0;
  for (let window = topK * 2; ; window *= 4) {
    const hits = searchIndexes(indexes, query, {
      topK: window,
      minScore,
      ...(indexFilters && { indexFilters }),
    });
    const batch = hits.slice(checked);
    const verdicts = await Promise.all(batch.map((hit) => session.allows(hit.id, 'search')));
    for (const [position, hit] of batch.entries()) {
      if (!verdicts[position]) continue;
      allowed.push({
        name: hit.id,
        description: truncateDescription(
          session.lookup(hit.id)?.descriptor.description ?? hit.description,
        ),
        score: Math.round(hit.score * 100) / 100,
      });
      if (allowed.length === topK) return allowed;
    }
    checked = hits.length;
    if (hits.length < window || window >= total) return allowed;
  }
}

/** Executes `search_tools` for a session. */
export async function searchTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  input: unknown,
): Promise<SearchToolsOutput> {
  const parsed = searchToolsInput.safeParse(input);
  if (!parsed.success) {
    return {
      results: [],
      message: 'search_tools needs a "query": a few keywords describing the task or a tool name.',
    };
  }
  const query = parsed.data.query;
  if (query.trim() === '') {
    return {
      results: [],
      message:
        'The query is empty. Describe the task in a few keywords, e.g. "send slack message".',
    };
  }
  const topK = parsed.data.limit ?? session.engine.options.topK;
  const results = await rankAllowed(session, query, topK);
  session.emit('onSearch', {
    threadId: session.threadId,
    query,
    results: results.map(({ name, score }) => ({ name, score })),
    unmatchedTerms: unmatchedTerms(session, query),
  });
  const echoed = query.length > MAX_ECHOED_QUERY ? `${query.slice(0, MAX_ECHOED_QUERY)}…` : query;
  if (results.length === 0) {
    return {
      results,
      message: `No tools match "${echoed}". Try other keywords: the action, the object, or the service's name.`,
    };
  }
  if (!session.engine.options.autoLoad) {
    return {
      results,
      message: `Found ${results.length} tool(s). Call load_tool with the exact names you need.`,
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
  const loaded = [...outcome.alreadyLoaded, ...outcome.loaded];
  return {
    results,
    loaded,
    ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
    message:
      loaded.length > 0
        ? `Found and loaded ${loaded.length} tool(s): ${loaded.join(', ')}. Call them from your next step.${evictionNote(outcome.evicted)}`
        : `Found ${results.length} tool(s), but none can be loaded.`,
  };
}

function unmatchedTerms<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  query: string,
): string[] {
  const [first, ...rest] = session.indexes.map((index) => index.unmatchedTerms(query));
  return (first ?? []).filter((word) => rest.every((other) => other.includes(word)));
}
