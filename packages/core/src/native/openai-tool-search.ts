import type { ToolSearchSession } from '../engine/tool-search-session';
import type { ToolResultRecord } from '../engine/types';
import type { ToolDescriptor } from '../search/tool-descriptor';
import { listNativeTools, toObjectSchema } from './native-catalog';
import { assignNamespaces, type NamespaceOptions, type OpenAINamespace } from './openai-namespaces';
import {
  NATIVE_SEARCH_DESCRIPTION,
  NATIVE_SEARCH_PARAMETERS,
  searchAndLoad,
  toActivationRecord,
} from './search-and-load';

/** A function tool of the Responses API (the fields of `FunctionTool` that tool search sets). */
export interface OpenAIFunctionDefinition {
  type: 'function';
  name: string;
  description?: string;
  parameters: { [key: string]: unknown };
  strict: boolean;
  /** Only its name and description are shown until tool search loads it. */
  defer_loading?: boolean;
}

/** A namespace of the Responses API: a group the model sees by name and description only. */
export interface OpenAINamespaceDefinition {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAIFunctionDefinition[];
}

/** The `tool_search` tool, run by the client: our index answers it. */
export interface OpenAIToolSearchDefinition {
  type: 'tool_search';
  execution: 'client';
  description: string;
  parameters: { [key: string]: unknown };
}

/** A tool of a tool-search request. */
export type OpenAIToolDefinition =
  | OpenAIFunctionDefinition
  | OpenAINamespaceDefinition
  | OpenAIToolSearchDefinition;

/** The input item that answers a `tool_search_call`: the definitions of the tools found. */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  call_id: string | null;
  execution: 'client';
  status: 'completed';
  /** Found tools, best first, each inside its namespace (one entry per namespace) or top-level. */
  tools: (OpenAIFunctionDefinition | OpenAINamespaceDefinition)[];
}

/** Options of {@link createOpenAIToolSearch}: how tools are grouped into namespaces. */
export type OpenAIToolSearchOptions = NamespaceOptions;

/** Provider-native tool search for one request on the Responses API. */
export interface OpenAIToolSearch {
  /**
   * Pass as `tools` on every request of the conversation: `tool_search` with client execution,
   * pinned tools, then namespaces (one per group) and top-level functions, every one of them
   * `defer_loading`. The same array each step, so the cached prompt prefix survives loads.
   */
  readonly tools: OpenAIToolDefinition[];
  /**
   * Whether an output item is a `tool_search_call` for the client to answer.
   * @param item - an item of `response.output`
   */
  isSearchCall<TItem extends { type: string; execution?: string }>(
    item: TItem,
  ): item is Extract<TItem, { type: 'tool_search_call' }> & { execution: 'client' };
  /**
   * Runs the search a `tool_search_call` asks for and answers with its `tool_search_output`: the
   * definitions of the tools found, loaded and allowed, best first (none when nothing was).
   * @param call - the `tool_search_call` item
   */
  answer(call: { call_id: string | null; arguments: unknown }): Promise<OpenAIToolSearchOutput>;
  /**
   * The namespace a tool is listed in, or `undefined` for a top-level function.
   * @param toolName - the tool's name
   */
  namespaceOf(toolName: string): string | undefined;
}

/**
 * OpenAI's deferred loading, ranked by the index: `defer_loading` functions, grouped in
 * namespaces when `group` says how, and `tool_search` with `execution: 'client'` whose output is
 * the definitions of the tools our index ranks, so the API appends them at the end of the
 * context and the model calls them as ordinary functions. Filters, pins, budgets, threads and
 * request-resolved tools work as with the meta-tools; before running a function the model calls,
 * ask `session.isActive(name)`.
 * @param session - one request's session; build the tools and answer the searches with it
 * @param options - `group` (say, one namespace per MCP server) and `maxNamespaceTools`
 * @example
 * const search = await createOpenAIToolSearch(engine.createSession({ threadId }), {
 *   group: (tool) => ({ name: tool.id.split('__')[0]!, description: 'GitHub issues and pull requests' }),
 * });
 * const response = await client.responses.create({ model, input, tools: search.tools });
 * // for each `tool_search_call` item `call` of response.output:
 * input.push(await search.answer(call));
 */
export async function createOpenAIToolSearch<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  options: OpenAIToolSearchOptions = {},
): Promise<OpenAIToolSearch> {
  const known = [...session.knownIds()].map((id) => session.lookup(id)!.descriptor);
  const namespaces = assignNamespaces(known, options);
  const { pinned, deferred } = await listNativeTools(session, {
    provider: 'openai',
    deferred: 'searchable',
  });
  const byName = new Map(deferred.map((descriptor) => [descriptor.id, descriptor]));
  return {
    tools: [
      {
        type: 'tool_search',
        execution: 'client',
        description: NATIVE_SEARCH_DESCRIPTION,
        parameters: structuredClone(NATIVE_SEARCH_PARAMETERS),
      },
      ...pinned.map((descriptor) => toOpenAIFunction(descriptor, false)),
      ...toOpenAIDefinitions(deferred, namespaces),
    ],
    isSearchCall: <TItem extends { type: string; execution?: string }>(
      item: TItem,
    ): item is Extract<TItem, { type: 'tool_search_call' }> & { execution: 'client' } =>
      item.type === 'tool_search_call' && item.execution === 'client',
    answer: async (call) => {
      const result = await searchAndLoad(session, call.arguments);
      // A pinned tool is loaded already; what is returned must be a deferred tool of this request.
      const found = result.toolNames.flatMap((name) => byName.get(name) ?? []);
      return {
        type: 'tool_search_output',
        call_id: call.call_id,
        execution: 'client',
        status: 'completed',
        tools: toOpenAIDefinitions(found, namespaces),
      };
    },
    namespaceOf: (toolName) => namespaces.get(toolName)?.name,
  };
}

/**
 * A tool's Responses API function definition, as the request lists it and tool search returns it.
 * @param descriptor - the tool as the index knows it
 * @param deferLoading - whether the definition waits for tool search
 */
export function toOpenAIFunction(
  descriptor: ToolDescriptor,
  deferLoading: boolean,
): OpenAIFunctionDefinition {
  return {
    type: 'function',
    name: descriptor.id,
    ...(descriptor.description !== undefined && { description: descriptor.description }),
    parameters: toObjectSchema(descriptor),
    strict: false,
    ...(deferLoading && { defer_loading: true }),
  };
}

/**
 * Deferred tools as Responses API tools: each grouped tool inside its namespace (one entry per
 * namespace, where its first tool stands), the others as top-level functions, in the given order.
 * @param tools - the tools, in the order to list them
 * @param namespaces - the namespace of each grouped tool, from {@link assignNamespaces}
 */
export function toOpenAIDefinitions(
  tools: readonly ToolDescriptor[],
  namespaces: ReadonlyMap<string, OpenAINamespace>,
): (OpenAIFunctionDefinition | OpenAINamespaceDefinition)[] {
  const definitions: (OpenAIFunctionDefinition | OpenAINamespaceDefinition)[] = [];
  const listed = new Map<string, OpenAINamespaceDefinition>();
  for (const tool of tools) {
    const namespace = namespaces.get(tool.id);
    const definition = toOpenAIFunction(tool, true);
    if (!namespace) {
      definitions.push(definition);
      continue;
    }
    let entry = listed.get(namespace.name);
    if (!entry) {
      entry = { type: 'namespace', ...namespace, tools: [] };
      listed.set(namespace.name, entry);
      definitions.push(entry);
    }
    entry.tools.push(definition);
  }
  return definitions;
}

/**
 * The loads a Responses API conversation holds (its `tool_search_output` items), in the shape
 * `engine.createSession({ toolResults })` reads, for `storage: 'context'`.
 * @param items - the conversation's input items, oldest first
 */
export function toolResultsFromOpenAIInput(items: readonly unknown[]): ToolResultRecord[] {
  const records: ToolResultRecord[] = [];
  for (const item of items) {
    const { type, tools } = (item ?? {}) as { type?: unknown; tools?: unknown };
    if (type !== 'tool_search_output' || !Array.isArray(tools)) continue;
    const names = loadedNames(tools);
    if (names.length > 0) records.push(toActivationRecord(names));
  }
  return records;
}

/**
 * The function names a tool search's output loads, namespaces flattened.
 * @param tools - the `tools` of a `tool_search_output`
 */
export function loadedNames(tools: readonly unknown[]): string[] {
  const functionName = (tool: unknown): string[] => {
    const { type, name } = (tool ?? {}) as Record<string, unknown>;
    return type === 'function' && typeof name === 'string' ? [name] : [];
  };
  return tools.flatMap((tool) => {
    const { type, tools: members } = (tool ?? {}) as Record<string, unknown>;
    // Namespaces hold functions, never namespaces: one level is all there is to read.
    return type === 'namespace' && Array.isArray(members)
      ? members.flatMap(functionName)
      : functionName(tool);
  });
}
