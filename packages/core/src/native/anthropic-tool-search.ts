import type { ToolSearchSession } from '../engine/tool-search-session';
import type { ToolResultRecord } from '../engine/types';
import { isProviderToolName, listNativeTools, toObjectSchema } from './native-catalog';
import {
  NATIVE_SEARCH_DESCRIPTION,
  NATIVE_SEARCH_PARAMETERS,
  NATIVE_SEARCH_TOOL_NAME,
  searchAndLoad,
  toActivationRecord,
} from './search-and-load';

/** A custom tool of the Messages API (the fields of `Anthropic.Tool` that tool search sets). */
export interface AnthropicToolDefinition {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  /** Kept out of the prompt until a `tool_reference` names it. */
  defer_loading?: boolean;
}

/** A block of a tool result that makes the API load a deferred tool's definition. */
export interface AnthropicToolReference {
  type: 'tool_reference';
  tool_name: string;
}

/** The `tool_result` block that answers the search tool's `tool_use`. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  /** The references of the tools found, or a sentence when none was. */
  content: string | AnthropicToolReference[];
}

/** Options of {@link createAnthropicToolSearch}. */
export interface AnthropicToolSearchOptions {
  /**
   * The conversation so far (Messages API messages), when the tools are built anew for each
   * request. The API refuses a conversation whose `tool_reference` names a tool the tools array
   * lacks, so each tool the conversation's searches referenced that the filter now denies is
   * listed by its name alone (no description, no schema): the provider learns nothing it was not
   * sent already, and the tool never runs (`session.isActive` refuses it). Without `messages`,
   * the tools the session's thread holds stand for what the conversation referenced.
   */
  messages?: readonly unknown[] | undefined;
}

/** What a tool the filter denies says, when a reference in the conversation needs it listed. */
const UNAVAILABLE_DESCRIPTION = 'Not available: do not call this tool.';

/** Provider-native tool search for one request on the Messages API. */
export interface AnthropicToolSearch {
  /**
   * Pass as `tools` on every request of the conversation: the search tool, pinned tools, then
   * every other tool the filter lets this request search, with `defer_loading: true` (the model
   * sees none of them until a search references it). A tool the filter denies is not sent (but
   * by name alone when the conversation references it, see {@link AnthropicToolSearchOptions}).
   * The same array each step while the filter's answers hold, so the cached prompt prefix
   * survives loads.
   */
  readonly tools: AnthropicToolDefinition[];
  /** The search tool's name (`search_tools`). */
  readonly searchToolName: string;
  /**
   * Whether a content block is a call of the search tool.
   * @param block - a block of the model's message
   */
  isSearchCall<TBlock extends { type: string; name?: string }>(
    block: TBlock,
  ): block is Extract<TBlock, { type: 'tool_use' }> & { name: typeof NATIVE_SEARCH_TOOL_NAME };
  /**
   * Runs the search a `tool_use` block asks for and answers with its `tool_result`: one
   * `tool_reference` per tool found, loaded and allowed, best first, or a sentence when none was.
   * @param toolUse - the search tool's `tool_use` block
   */
  answer(toolUse: { id: string; input: unknown }): Promise<AnthropicToolResult>;
}

/**
 * Anthropic's deferred loading, ranked by the index: the tools array with `defer_loading` on
 * every tool but the search tool and pinned tools, and a client-side search tool whose result is
 * `tool_reference` blocks, so the API appends the found tools' definitions at the end of the
 * conversation and the model calls them as ordinary tools. Filters, pins, budgets, threads and
 * request-resolved tools work as with the meta-tools; before running a tool the model calls, ask
 * `session.isActive(name)`. Only the tools the filter lets the request search are sent: the
 * filter is asked once per catalog tool (`search` phase) when the array is built, and the
 * session keeps the answers for its searches.
 * @param session - one request's session; build the tools and answer the searches with it
 * @param options - the conversation so far, when the array is built per request
 * @example
 * const search = await createAnthropicToolSearch(engine.createSession({ threadId }));
 * const message = await client.messages.create({ model, max_tokens: 1024, tools: search.tools, messages });
 * // for each tool_use block `block` of the search tool:
 * results.push(await search.answer(block));
 */
export async function createAnthropicToolSearch<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  options: AnthropicToolSearchOptions = {},
): Promise<AnthropicToolSearch> {
  const { pinned, deferred } = await listNativeTools(session, {
    provider: 'anthropic',
    deferred: 'searchable',
  });
  const toDefinition = (
    descriptor: (typeof pinned)[number],
    deferLoading: boolean,
  ): AnthropicToolDefinition => ({
    name: descriptor.id,
    ...(descriptor.description !== undefined && { description: descriptor.description }),
    input_schema: toObjectSchema(descriptor),
    ...(deferLoading && { defer_loading: true }),
  });
  const referable = new Set(deferred.map((descriptor) => descriptor.id));
  const tools: AnthropicToolDefinition[] = [
    {
      name: NATIVE_SEARCH_TOOL_NAME,
      description: NATIVE_SEARCH_DESCRIPTION,
      input_schema: structuredClone(
        NATIVE_SEARCH_PARAMETERS,
      ) as AnthropicToolDefinition['input_schema'],
    },
    ...pinned.map((descriptor) => toDefinition(descriptor, false)),
    ...deferred.map((descriptor) => toDefinition(descriptor, true)),
  ];
  const pins = new Set(session.engine.options.alwaysLoaded ?? []);
  const listed = new Set(referable);
  for (const name of await referencedNames(session, options.messages)) {
    // Known tools only: a reference to a name no tool has is the conversation's own problem.
    const id = session.idOf(name);
    if (id === undefined || listed.has(id) || pins.has(id) || !isProviderToolName(id)) continue;
    listed.add(id);
    tools.push({
      name: id,
      description: UNAVAILABLE_DESCRIPTION,
      input_schema: { type: 'object', properties: {} },
      defer_loading: true,
    });
  }
  return {
    tools,
    searchToolName: NATIVE_SEARCH_TOOL_NAME,
    isSearchCall: <TBlock extends { type: string; name?: string }>(
      block: TBlock,
    ): block is Extract<TBlock, { type: 'tool_use' }> & { name: typeof NATIVE_SEARCH_TOOL_NAME } =>
      block.type === 'tool_use' && block.name === NATIVE_SEARCH_TOOL_NAME,
    answer: async (toolUse) => {
      const result = await searchAndLoad(session, toolUse.input);
      // A pinned tool is loaded already; a reference must name a deferred tool of this request.
      const references = result.toolNames.filter((name) => referable.has(name));
      return {
        type: 'tool_result',
        tool_use_id: toolUse.id,
        content:
          references.length > 0
            ? references.map((name) => ({ type: 'tool_reference', tool_name: name }))
            : result.toolNames.length > 0
              ? `Already available: ${result.toolNames.join(', ')}. Call them directly.`
              : result.message,
      };
    },
  };
}

/**
 * The tools a conversation's searches referenced, as far as the session can tell: the given
 * messages' `tool_reference` results, and the tools the session's thread holds in the store.
 */
async function referencedNames<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  messages: readonly unknown[] | undefined,
): Promise<Set<string>> {
  const names = new Set<string>();
  for (const record of toolResultsFromAnthropicMessages(messages ?? [])) {
    const loaded = (record.output as { activation?: { loaded?: unknown } }).activation?.loaded;
    if (Array.isArray(loaded)) for (const name of loaded) names.add(name as string);
  }
  if (session.usesStore) for (const entry of await session.readEntries()) names.add(entry.id);
  return names;
}

/**
 * The loads a Messages API conversation holds (the search tool's `tool_reference` results), in
 * the shape `engine.createSession({ toolResults })` reads, for `storage: 'context'`.
 * @param messages - the conversation's messages, oldest first
 */
export function toolResultsFromAnthropicMessages(messages: readonly unknown[]): ToolResultRecord[] {
  const searches = new Set<string>();
  const records: ToolResultRecord[] = [];
  for (const message of messages) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (!Array.isArray(content)) continue;
    for (const block of content as Record<string, unknown>[]) {
      if (
        role === 'assistant' &&
        block?.type === 'tool_use' &&
        block.name === NATIVE_SEARCH_TOOL_NAME &&
        typeof block.id === 'string'
      ) {
        searches.add(block.id);
      } else if (
        role === 'user' &&
        block?.type === 'tool_result' &&
        searches.has(block.tool_use_id as string) &&
        Array.isArray(block.content)
      ) {
        const names = (block.content as Record<string, unknown>[])
          .filter((part) => part?.type === 'tool_reference' && typeof part.tool_name === 'string')
          .map((part) => part.tool_name as string);
        if (names.length > 0) records.push(toActivationRecord(names));
      }
    }
  }
  return records;
}
