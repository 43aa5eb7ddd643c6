import type { ToolSearchSession } from '../engine/tool-search-session';
import type { ToolResultRecord } from '../engine/types';
import { echoQuery } from '../meta-tools/echo-name';
import { evictionNote, loadNames } from '../meta-tools/load-names';
import { searchToolsInput } from '../meta-tools/meta-tool-schemas';
import { searchToolsDescription } from '../meta-tools/meta-tool-texts';
import { rankAllowed } from '../meta-tools/search-tools';
import { AUTO_LOAD_ACTIVATION_TYPE, AUTO_LOAD_ACTIVATION_VERSION } from '../state/context-state';

/** What a provider-native search found and loaded, for the provider to expand. */
export interface NativeSearchResult {
  /**
   * The tools to hand the provider (Anthropic's `tool_reference` blocks, OpenAI's loaded
   * definitions), by id, best first: ranked by the index, allowed by the filter in the `search`
   * and `load` phases, and now loaded in the session's state (thread, store, budget). Empty when
   * nothing was found or the state could not be written.
   */
  toolNames: string[];
  /** Tools the `maxLoadedTools` budget unloaded to make room. */
  evicted: string[];
  /** For the model: what was loaded, or why nothing was. */
  message: string;
}

/** The name of the client-side search tool on Anthropic, and of its results in the conversation. */
export const NATIVE_SEARCH_TOOL_NAME = 'search_tools';

/** What the model is told the native search tool does: it finds, and the provider loads. */
export const NATIVE_SEARCH_DESCRIPTION = searchToolsDescription(true);

/** The native search tool's input, as JSON Schema: the same fields as `search_tools`. */
export const NATIVE_SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description: 'Keywords or a tool name, e.g. "weather forecast", "create github issue"',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 50,
      description: 'How many tools to load at most',
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/**
 * Answers a provider-native tool search (Anthropic's client-side search tool, OpenAI's
 * `tool_search` with `execution: 'client'`) from the index: ranks the session's tools for the
 * query (`topK`, `minScore`, request-resolved tools), keeps those the filter allows to be searched
 * and loaded, and records them as loaded in the session's state, within the budget, as
 * `search_tools` does under autoLoad. A denied or unknown tool is never among the results.
 * @param session - the request: its thread, filter answers and resolved tools
 * @param input - what the model sent: `{ query, limit? }`, as an object or as its JSON text
 * @example
 * const { toolNames, message } = await searchAndLoad(session, toolUse.input);
 */
export async function searchAndLoad<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  input: unknown,
): Promise<NativeSearchResult> {
  const parsed = searchToolsInput.safeParse(parseJson(input));
  const nothing = (message: string): NativeSearchResult => ({
    toolNames: [],
    evicted: [],
    message,
  });
  if (!parsed.success) {
    return nothing(
      'The search needs a "query": a few keywords describing the task or a tool name.',
    );
  }
  const { query } = parsed.data;
  if (query.trim() === '') {
    return nothing(
      'No tools found: the query is empty. Describe the task in a few keywords, e.g. "send slack message".',
    );
  }
  const topK = parsed.data.limit ?? session.engine.options.topK;
  const { results, unloadable } = await rankAllowed(session, query, topK, { loadable: true });
  if (session.engine.options.onSearch !== undefined) {
    const [first, ...rest] = session.indexes.map((index) => index.unmatchedTerms(query));
    session.emit('onSearch', {
      threadId: session.threadId,
      query,
      results: results.map(({ name, score }) => ({ name, score })),
      unmatchedTerms: (first ?? []).filter((word) => rest.every((other) => other.includes(word))),
    });
  }
  const echoed = echoQuery(query);
  if (results.length === 0) {
    return nothing(
      unloadable > 0
        ? `No tools available to load matching "${echoed}". Try other keywords.`
        : `No tools found matching "${echoed}". Try other keywords: the action, the object, or the service's name.`,
    );
  }
  const names = results.map((result) => result.name);
  const outcome = await loadNames(session, names, 'search_tools');
  if (outcome.failed) {
    return nothing(
      `Found ${names.length} tool(s), but they could not be loaded right now; try again.`,
    );
  }
  const evicted = new Set(outcome.evicted);
  const toolNames = names.filter((name) => !evicted.has(name));
  return {
    toolNames,
    evicted: outcome.evicted,
    message: `Found and loaded ${toolNames.length} tool(s): ${toolNames.join(', ')}. Call them directly.${evictionNote(outcome.evicted)}`,
  };
}

/**
 * The tool result a native search leaves in the conversation, in the shape the core's context
 * storage reads (`search_tools` with an autoLoad receipt): what the provider-message readers hand
 * to `engine.createSession({ toolResults })`.
 * @param toolNames - the tools the search loaded
 */
export function toActivationRecord(toolNames: readonly string[]): ToolResultRecord {
  return {
    toolName: NATIVE_SEARCH_TOOL_NAME,
    output: {
      activation: {
        type: AUTO_LOAD_ACTIVATION_TYPE,
        version: AUTO_LOAD_ACTIVATION_VERSION,
        loaded: [...toolNames],
      },
    },
  };
}

/** OpenAI may hand arguments over as JSON text; anything that does not parse stays as it is. */
function parseJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
