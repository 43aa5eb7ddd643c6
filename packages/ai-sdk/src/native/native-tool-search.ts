import type { ModelMessage, Tool, ToolSet } from 'ai';
import {
  createToolSearchEngine,
  NATIVE_SEARCH_TOOL_NAME,
  type NativeSearchResult,
  searchAndLoad,
  type ToolSearchEngine,
  type ToolSearchSession,
  toActivationRecord,
} from 'tool-search-core';
import type { PrepareStepInput, ToolSearchOptions } from '../create-tool-search';
import { type AiTool, describeAiTool } from '../describe-ai-tool';
import { embeddingModelOptions } from '../embed-with-model';

/**
 * Options of the provider-native paths: those of `createToolSearch` but `unloadTool` (a native
 * load lasts the conversation) and `search.autoLoad` (a native search always loads).
 */
export type NativeToolSearchOptions<TTools extends ToolSet, TContext = unknown> = Omit<
  ToolSearchOptions<TTools, TContext>,
  'unloadTool'
>;

/** What a native `prepareStep` sets: the tools sent this step, in a fixed order. */
export interface NativeStepResult {
  /**
   * `search_tools`, pinned tools, then the catalog tools the filter lets this step's caller
   * search or run (deferred): a tool the filter denies is not sent.
   */
  activeTools: string[];
  /** The same list, so every step sends the tools in the same order. */
  toolOrder: string[];
  /** Carries the call's context to `search_tools` (ai 7 gives a tool only its own entry). */
  toolsContext: Record<string, unknown>;
  /**
   * The step's messages with the search results' references to tools not sent this step taken
   * out (Anthropic refuses a conversation that references a tool the request lacks); set only
   * when there was one to take out (a tool the filter denies since it was found, or a forged
   * result).
   */
  messages?: ModelMessage[];
}

/** What `toolApproval` receives: the call to check and the step it happens in. */
export interface NativeApprovalInput {
  toolCall: { toolName: string };
  messages: readonly unknown[];
  runtimeContext?: unknown;
}

/** A call the model may not make: the AI SDK answers it as denied and does not run the tool. */
export type NativeApproval = { type: 'not-applicable' } | { type: 'denied'; reason: string };

/** A provider-native tool search for the AI SDK: pass all three to `generateText` / `streamText`. */
export interface NativeToolSearch<TTools extends ToolSet, TContext = unknown> {
  /**
   * The catalog, every tool but the pinned ones deferred through the provider's options, plus
   * `search_tools`: pass as `tools`.
   */
  tools: TTools & Record<typeof NATIVE_SEARCH_TOOL_NAME, Tool>;
  /** Pass as `prepareStep`: the same tools every step, and the call's context for the search. */
  prepareStep: (input: PrepareStepInput) => Promise<NativeStepResult>;
  /**
   * Pass as `toolApproval`: a call to a catalog tool runs only when the session says it may (a
   * search loaded it or it is pinned, the filter allows it, the budget kept it); otherwise the
   * AI SDK answers the model that the call was denied.
   */
  toolApproval: (input: NativeApprovalInput) => Promise<NativeApproval>;
  /** The core engine: state management (`clearState`, `getStateStats`...) and the index. */
  engine: ToolSearchEngine<AiTool, TContext>;
}

/** What differs between providers. */
export interface NativeProvider {
  /** The provider options that defer a catalog tool (merged into the tool's own). */
  deferredOptions(id: string): Record<string, Record<string, unknown>>;
  /** The search tool, running `search` for each call. */
  searchTool(
    search: (
      input: unknown,
      context: unknown,
      messages: readonly unknown[],
    ) => Promise<NativeSearchResult>,
  ): Tool;
  /** The tools a search result in the conversation loaded (its model-message output). */
  loadedBy(output: unknown): string[];
  /**
   * A search result's output that names only tools sent this step, or `undefined` when it names
   * none other (Anthropic: the API refuses a reference to a tool its request lacks; OpenAI's
   * results carry their definitions, so it has none).
   */
  withoutReferences?(output: unknown, sent: ReadonlySet<string>): unknown;
}

/**
 * Builds a provider-native tool search on the core engine: one place for what both providers
 * share (the engine, the session per step, the search tool's runs, `prepareStep` and
 * `toolApproval`).
 * @param options - the catalog and the engine's options
 * @param providerFor - what the provider does differently, given the engine
 */
export function createNativeToolSearch<TTools extends ToolSet, TContext>(
  options: NativeToolSearchOptions<TTools, TContext>,
  providerFor: (engine: ToolSearchEngine<AiTool, TContext>) => NativeProvider,
): NativeToolSearch<TTools, TContext> {
  const { threadId, storage = 'context', embeddingModel, ...engineOptions } = options;
  const engine = createToolSearchEngine<AiTool, TContext>({
    ...engineOptions,
    ...embeddingModelOptions('tool-search-ai-sdk', embeddingModel, engineOptions),
    storage,
    describe: describeAiTool,
  });
  const provider = providerFor(engine);
  const pins = new Set(engine.options.alwaysLoaded ?? []);
  const sessionFor = (
    context: unknown,
    messages: readonly unknown[] | undefined,
  ): ToolSearchSession<AiTool, TContext> =>
    engine.createSession({
      threadId: typeof threadId === 'function' ? threadId(context as TContext) : threadId,
      requestContext: context as TContext,
      toolResults: searchOutputs(messages).map((output) =>
        toActivationRecord(provider.loadedBy(output)),
      ),
    });

  const searchTool = provider.searchTool((input, context, messages) =>
    searchAndLoad(sessionFor(context, messages), input),
  );
  const tools: Record<string, Tool> = { [NATIVE_SEARCH_TOOL_NAME]: searchTool };
  for (const [name, tool] of Object.entries(options.tools)) {
    if (pins.has(name)) {
      tools[name] = tool as Tool;
      continue;
    }
    const own = (tool.providerOptions ?? {}) as Record<string, Record<string, unknown>>;
    const deferred = provider.deferredOptions(name);
    const providerOptions = Object.fromEntries(
      [...new Set([...Object.keys(own), ...Object.keys(deferred)])].map((key) => [
        key,
        { ...own[key], ...deferred[key] },
      ]),
    );
    // The tool's own object is left alone: a copy carries the provider's deferral.
    tools[name] = { ...tool, providerOptions } as unknown as Tool;
  }

  return {
    tools: tools as unknown as TTools & Record<typeof NATIVE_SEARCH_TOOL_NAME, Tool>,
    engine,
    prepareStep: async (input) => {
      const context = input.runtimeContext ?? input.experimental_context;
      const session = sessionFor(context, input.messages);
      const pinned = (await session.activeTools())
        .filter((tool) => tool.pinned)
        .map((tool) => tool.id);
      // What the caller may find, and what the conversation loaded that it may still run: a
      // deferred tool's description reaches the provider, so a tool the filter denies is not
      // sent. The filter is asked once per tool per step (the session keeps its answers).
      const [active, searchable] = await Promise.all([
        session.activeTools(),
        session.listTools('search'),
      ]);
      const sendable = new Set([
        ...active.filter((tool) => !tool.pinned).map((tool) => tool.id),
        ...searchable.map((entry) => entry.key),
      ]);
      const deferred = Object.keys(options.tools).filter(
        (name) => !pins.has(name) && sendable.has(name),
      );
      const names = [NATIVE_SEARCH_TOOL_NAME, ...pinned, ...deferred];
      const messages = provider.withoutReferences
        ? withoutReferences(input.messages, new Set(names), provider.withoutReferences)
        : undefined;
      return {
        activeTools: names,
        toolOrder: names,
        toolsContext: {
          ...(input.toolsContext as Record<string, unknown> | undefined),
          [NATIVE_SEARCH_TOOL_NAME]: context,
        },
        ...(messages && { messages }),
      };
    },
    toolApproval: async ({ toolCall, messages, runtimeContext }) => {
      const { toolName } = toolCall;
      if (toolName === NATIVE_SEARCH_TOOL_NAME || !Object.hasOwn(options.tools, toolName)) {
        return { type: 'not-applicable' };
      }
      const session = sessionFor(runtimeContext, messages);
      return (await session.isActive(toolName))
        ? { type: 'not-applicable' }
        : {
            type: 'denied',
            reason: `Tool "${toolName}" is not loaded. Call ${NATIVE_SEARCH_TOOL_NAME} to find it first.`,
          };
    },
  };
}

/**
 * The messages with each `search_tools` result's output rewritten to name sent tools only, or
 * `undefined` when every result does already.
 */
function withoutReferences(
  messages: readonly unknown[] | undefined,
  sent: ReadonlySet<string>,
  rewrite: NonNullable<NativeProvider['withoutReferences']>,
): ModelMessage[] | undefined {
  let changed = false;
  const rewritten = (messages ?? []).map((message) => {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'tool' || !Array.isArray(content)) return message;
    let parts: unknown[] | undefined;
    content.forEach((part: Record<string, unknown>, position) => {
      if (part?.type !== 'tool-result' || part.toolName !== NATIVE_SEARCH_TOOL_NAME) return;
      const output = rewrite(part.output, sent);
      if (output === undefined) return;
      parts ??= [...content];
      parts[position] = { ...part, output };
    });
    if (!parts) return message;
    changed = true;
    return { ...(message as object), content: parts };
  });
  return changed ? (rewritten as ModelMessage[]) : undefined;
}

/** The outputs of `search_tools` results in AI SDK model messages, oldest first. */
function searchOutputs(messages: readonly unknown[] | undefined): unknown[] {
  const outputs: unknown[] = [];
  for (const message of messages ?? []) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'tool' || !Array.isArray(content)) continue;
    for (const part of content as Record<string, unknown>[]) {
      if (part?.type === 'tool-result' && part.toolName === NATIVE_SEARCH_TOOL_NAME) {
        outputs.push(part.output);
      }
    }
  }
  return outputs;
}
