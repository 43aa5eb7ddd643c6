import { suggestNames } from '../engine/suggest';
import { StoreError, type ToolSearchSession } from '../engine/tool-search-session';
import type { MetaTool } from '../engine/types';
import { searchIndexes } from '../search/search-indexes';
import {
  type LoadToolOutput,
  loadToolInput,
  type SearchToolsOutput,
  type SearchToolsResult,
  searchToolsInput,
  type UnloadToolOutput,
  unloadToolInput,
} from './meta-tool-schemas';
import {
  LOAD_TOOL_DESCRIPTION,
  searchToolsDescription,
  truncateDescription,
  UNLOAD_TOOL_DESCRIPTION,
} from './meta-tool-texts';

/** Names one `load_tool` call may ask for; more is a malformed call, not a real need. */
const MAX_NAMES_PER_LOAD = 50;
/** A query is echoed back to the model cut to this length. */
const MAX_ECHOED_QUERY = 80;

/** Builds the meta-tools of a session. */
export function createMetaTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
): MetaTool[] {
  const { autoLoad, unloadTool } = session.engine.options;
  const tools: MetaTool[] = [
    {
      name: 'search_tools',
      description: searchToolsDescription(autoLoad),
      inputSchema: searchToolsInput,
      execute: (input) => searchTools(session, input),
    } satisfies MetaTool<unknown, SearchToolsOutput>,
  ];
  if (!autoLoad) {
    tools.push({
      name: 'load_tool',
      description: LOAD_TOOL_DESCRIPTION,
      inputSchema: loadToolInput,
      execute: (input) => loadTool(session, input),
    } satisfies MetaTool<unknown, LoadToolOutput>);
  }
  if (unloadTool) {
    tools.push({
      name: 'unload_tool',
      description: UNLOAD_TOOL_DESCRIPTION,
      inputSchema: unloadToolInput,
      execute: (input) => unloadTools(session, input),
    } satisfies MetaTool<unknown, UnloadToolOutput>);
  }
  return tools;
}

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
  const indexFilters = indexes.map((index) => (id: string) => !session.isShadowed(id, index));
  const total = indexes.reduce((sum, index) => sum + index.size, 0);
  const allowed: SearchToolsResult[] = [];
  let checked = 0;
  for (let window = topK * 2; ; window *= 4) {
    const hits = searchIndexes(indexes, query, { topK: window, minScore, indexFilters });
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

async function searchTools<TTool, TContext>(
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

async function loadTool<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  input: unknown,
): Promise<LoadToolOutput> {
  const parsed = loadToolInput.safeParse(input);
  const toolName = parsed.success ? parsed.data.toolName : undefined;
  const toolNames = parsed.success ? parsed.data.toolNames : undefined;
  const names = [...new Set([...(toolNames ?? []), ...(toolName ? [toolName] : [])])];
  if (names.length === 0) {
    return {
      success: false,
      message:
        'Give load_tool a toolName (one exact name from search results) or toolNames (several).',
    };
  }
  if (names.length > MAX_NAMES_PER_LOAD) {
    return { success: false, message: `Load at most ${MAX_NAMES_PER_LOAD} tools at once.` };
  }
  const outcome = await loadNames(session, names, 'load_tool');
  if (outcome.failed) {
    return {
      success: false,
      message:
        'Tools could not be loaded right now because the tool state is unavailable. Try again.',
    };
  }
  const single = toolNames === undefined && toolName !== undefined;
  if (single) {
    const name = toolName;
    if (outcome.notFound.length > 0) {
      const suggestions = await suggestAllowed(session, name);
      const hint =
        suggestions.length > 0
          ? ` Did you mean: ${suggestions.join(', ')}?`
          : ' Use search_tools to find tools.';
      return { success: false, message: `Tool "${name}" not found.${hint}`, toolName: name };
    }
    if (outcome.alreadyLoaded.length > 0) {
      return { success: true, message: `Tool "${name}" is already loaded.`, toolName: name };
    }
    return {
      success: true,
      message: `Tool "${name}" loaded. Call it from your next step.${evictionNote(outcome.evicted)}`,
      toolName: name,
      ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
    };
  }
  const parts: string[] = [];
  if (outcome.loaded.length > 0)
    parts.push(`Loaded: ${outcome.loaded.join(', ')}; call them from your next step`);
  if (outcome.alreadyLoaded.length > 0)
    parts.push(`Already loaded: ${outcome.alreadyLoaded.join(', ')}`);
  if (outcome.notFound.length > 0)
    parts.push(`Not found: ${outcome.notFound.join(', ')}; use search_tools to find tools`);
  return {
    success: outcome.notFound.length === 0,
    message: parts.join('. ') + evictionNote(outcome.evicted),
    loadedCount: outcome.loaded.length,
    ...(outcome.loaded.length > 0 && { loaded: outcome.loaded }),
    ...(outcome.alreadyLoaded.length > 0 && { alreadyLoaded: outcome.alreadyLoaded }),
    ...(outcome.notFound.length > 0 && { notFound: outcome.notFound }),
    ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
  };
}

interface LoadOutcome {
  loaded: string[];
  alreadyLoaded: string[];
  notFound: string[];
  evicted: string[];
  failed: boolean;
}

/** Loads names that exist and pass the `load` filter, within the budget; reports the rest as not found. */
async function loadNames<TTool, TContext>(
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
  const verdicts = await Promise.all(
    names.map((name) => (session.lookup(name) ? session.allows(name, 'load') : false)),
  );
  names.forEach((name, position) => {
    if (!session.lookup(name)) {
      session.deny(name, 'load', 'unknown-tool');
      outcome.notFound.push(name);
    } else if (!verdicts[position]) {
      outcome.notFound.push(name);
    } else if (pinned.has(name)) {
      outcome.alreadyLoaded.push(name);
    } else {
      candidates.push(name);
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

async function unloadTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  input: unknown,
): Promise<UnloadToolOutput> {
  const parsed = unloadToolInput.safeParse(input);
  if (!parsed.success)
    return {
      success: false,
      message: 'Give unload_tool toolNames: the loaded tools to drop.',
      unloaded: [],
    };
  const wanted = new Set(parsed.data.toolNames);
  let unloaded: string[] = [];
  try {
    unloaded = await session.update((entries) => {
      const removed = entries.filter((entry) => wanted.has(entry.id)).map((entry) => entry.id);
      const kept = entries.filter((entry) => !wanted.has(entry.id));
      entries.splice(0, entries.length, ...kept);
      return removed;
    });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return {
      success: false,
      message: 'Tools could not be unloaded right now. Try again.',
      unloaded: [],
    };
  }
  const notLoaded = [...wanted].filter((name) => !unloaded.includes(name));
  if (unloaded.length > 0)
    session.emit('onEvict', { threadId: session.threadId, toolNames: unloaded, reason: 'unload' });
  return {
    success: unloaded.length > 0,
    message:
      unloaded.length > 0
        ? `Unloaded: ${unloaded.join(', ')}.`
        : 'None of these tools were loaded.',
    unloaded,
    ...(notLoaded.length > 0 && { notLoaded }),
  };
}

async function suggestAllowed<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  name: string,
): Promise<string[]> {
  const near = suggestNames(name, session.knownIds());
  const verdicts = await Promise.all(near.map((id) => session.allows(id, 'load')));
  return near.filter((_, position) => verdicts[position]);
}

function unmatchedTerms<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  query: string,
): string[] {
  const [first, ...rest] = session.indexes.map((index) => index.unmatchedTerms(query));
  return (first ?? []).filter((word) => rest.every((other) => other.includes(word)));
}

function evictionNote(evicted: string[]): string {
  return evicted.length > 0
    ? ` To stay within the tool budget these were unloaded: ${evicted.join(', ')}.`
    : '';
}
