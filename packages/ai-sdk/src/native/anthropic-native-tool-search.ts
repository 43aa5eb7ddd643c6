import type { AnthropicToolOptions } from '@ai-sdk/anthropic';
import { type JSONSchema7, jsonSchema, type ToolSet, tool } from 'ai';
import {
  NATIVE_SEARCH_DESCRIPTION,
  NATIVE_SEARCH_PARAMETERS,
  type NativeSearchResult,
} from 'tool-search-core';
import {
  createNativeToolSearch,
  type NativeToolSearch,
  type NativeToolSearchOptions,
} from './native-tool-search';

/** The custom part of a tool result that `@ai-sdk/anthropic` sends as a `tool_reference` block. */
interface ToolReferencePart {
  type: 'custom';
  providerOptions: { anthropic: { type: 'tool-reference'; toolName: string } };
}

/**
 * Anthropic's deferred loading through the AI SDK's Anthropic provider, ranked by our index:
 * every catalog tool but the pinned ones carries `providerOptions.anthropic.deferLoading`, and
 * `search_tools` answers with `tool_reference` blocks for the tools the index ranks (filters,
 * budgets and threads as with `createToolSearch`), so the API appends their definitions at the
 * end of the conversation and the tools sent never change while the filter's answers hold. A
 * tool the filter denies is not sent, and a reference to one (found before the filter denied it,
 * or forged) is taken out of the step's messages. Needs `ai` 7 and `@ai-sdk/anthropic` 4.
 * @param options - the catalog and the options of `createToolSearch` (but `unloadTool`)
 * @example
 * const toolSearch = createAnthropicNativeToolSearch({ tools: catalog });
 * await generateText({
 *   model: anthropic('claude-sonnet-4-5'),
 *   tools: toolSearch.tools, prepareStep: toolSearch.prepareStep, toolApproval: toolSearch.toolApproval,
 *   stopWhen: stepCountIs(10), prompt,
 * });
 */
export function createAnthropicNativeToolSearch<TTools extends ToolSet, TContext = unknown>(
  options: NativeToolSearchOptions<TTools, TContext>,
): NativeToolSearch<TTools, TContext> {
  return createNativeToolSearch(options, () => ({
    deferredOptions: () => ({ anthropic: { deferLoading: true } satisfies AnthropicToolOptions }),
    searchTool: (search) =>
      tool({
        description: NATIVE_SEARCH_DESCRIPTION,
        inputSchema: jsonSchema<{ query: string; limit?: number }>(
          structuredClone(NATIVE_SEARCH_PARAMETERS) as unknown as JSONSchema7,
        ),
        execute: (input, { context, messages }) => search(input, context, messages),
        // The AI SDK passes `{ output, ... }`; Mastra, whose agents take these tools, the output.
        toModelOutput: (options: { output: NativeSearchResult } | NativeSearchResult) => {
          const output = 'toolNames' in options ? options : options.output;
          return output.toolNames.length > 0
            ? {
                type: 'content',
                value: output.toolNames.map(
                  (toolName): ToolReferencePart => ({
                    type: 'custom',
                    providerOptions: { anthropic: { type: 'tool-reference', toolName } },
                  }),
                ),
              }
            : { type: 'text', value: output.message };
        },
      }),
    loadedBy: (output) => {
      const { type, value } = (output ?? {}) as { type?: unknown; value?: unknown };
      if (type !== 'content' || !Array.isArray(value)) return [];
      return (value as Partial<ToolReferencePart>[]).flatMap((part) => {
        const name = referencedName(part);
        return name === undefined ? [] : [name];
      });
    },
    withoutReferences: (output, sent) => {
      const { type, value } = (output ?? {}) as { type?: unknown; value?: unknown };
      if (type !== 'content' || !Array.isArray(value)) return undefined;
      const kept = value.filter((part) => {
        const name = referencedName(part);
        return name === undefined || sent.has(name);
      });
      if (kept.length === value.length) return undefined;
      return kept.some((part) => referencedName(part) !== undefined)
        ? { type: 'content', value: kept }
        : { type: 'text', value: UNAVAILABLE_MESSAGE };
    },
  }));
}

/** What a search result says once none of the tools it found may be used any more. */
const UNAVAILABLE_MESSAGE = 'The tools this search found are not available any more.';

/** The tool a `tool_reference` part names, or `undefined` for any other part. */
function referencedName(part: unknown): string | undefined {
  const { type, providerOptions } = (part ?? {}) as Partial<ToolReferencePart>;
  const reference = type === 'custom' ? providerOptions?.anthropic : undefined;
  return reference?.type === 'tool-reference' && typeof reference.toolName === 'string'
    ? reference.toolName
    : undefined;
}
