import { openai } from '@ai-sdk/openai';
import type { JSONValue, ToolSet } from 'ai';
import { NATIVE_SEARCH_DESCRIPTION, NATIVE_SEARCH_PARAMETERS } from 'tool-search-core';
import {
  assignNamespaces,
  loadedNames,
  type NamespaceOptions,
  toOpenAIDefinitions,
} from 'tool-search-core/openai';
import {
  createNativeToolSearch,
  type NativeToolSearch,
  type NativeToolSearchOptions,
} from './native-tool-search';

/** Options of {@link createOpenAINativeToolSearch}: those of the native paths, and namespaces. */
export type OpenAINativeToolSearchOptions<
  TTools extends ToolSet,
  TContext = unknown,
> = NativeToolSearchOptions<TTools, TContext> & NamespaceOptions;

/**
 * OpenAI's deferred loading through the AI SDK's OpenAI provider (Responses API), ranked by our
 * index: every catalog tool but the pinned ones carries `providerOptions.openai.deferLoading`
 * (and `namespace`, when `group` says how to group the catalog), and `search_tools` is the
 * provider's `toolSearch({ execution: 'client' })`, answered with the definitions of the tools the
 * index ranks (filters, budgets and threads as with `createToolSearch`), so the API appends them
 * at the end of the context. Needs `ai` 7 and `@ai-sdk/openai` 4.
 * @param options - the catalog, the options of `createToolSearch` (but `unloadTool`), `group`
 *   and `maxNamespaceTools`
 * @example
 * const toolSearch = createOpenAINativeToolSearch({
 *   tools: catalog,
 *   group: (tool) => ({ name: tool.id.split('__')[0]!, description: 'Tools of one MCP server' }),
 * });
 * await generateText({
 *   model: openai('gpt-5.4'),
 *   tools: toolSearch.tools, prepareStep: toolSearch.prepareStep, toolApproval: toolSearch.toolApproval,
 *   stopWhen: stepCountIs(10), prompt,
 * });
 */
export function createOpenAINativeToolSearch<TTools extends ToolSet, TContext = unknown>(
  options: OpenAINativeToolSearchOptions<TTools, TContext>,
): NativeToolSearch<TTools, TContext> {
  const { group, maxNamespaceTools, ...rest } = options;
  return createNativeToolSearch(rest, (engine) => {
    const descriptors = [...engine.catalog.values()].map((entry) => entry.descriptor);
    const namespaces = assignNamespaces(descriptors, { group, maxNamespaceTools });
    const pins = new Set(engine.options.alwaysLoaded ?? []);
    return {
      deferredOptions: (id) => {
        const namespace = namespaces.get(id);
        return {
          openai: { deferLoading: true, ...(namespace && { namespace: { ...namespace } }) },
        };
      },
      searchTool: (search) =>
        openai.tools.toolSearch({
          execution: 'client',
          description: NATIVE_SEARCH_DESCRIPTION,
          parameters: structuredClone(NATIVE_SEARCH_PARAMETERS),
          execute: async (input, { context, messages }) => {
            const result = await search(input.arguments, context, messages);
            const found = result.toolNames.flatMap((name) => {
              const entry = engine.catalog.get(name);
              return entry && !pins.has(name) ? [entry.descriptor] : [];
            });
            return {
              tools: toOpenAIDefinitions(found, namespaces) as unknown as {
                [key: string]: JSONValue;
              }[],
            };
          },
        }),
      loadedBy: (output) => {
        const { type, value } = (output ?? {}) as { type?: unknown; value?: { tools?: unknown } };
        return type === 'json' && Array.isArray(value?.tools) ? loadedNames(value.tools) : [];
      },
    };
  });
}
