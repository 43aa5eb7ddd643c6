import type { BaseMessage } from '@langchain/core/messages';
import { tool as createTool, type StructuredToolInterface } from '@langchain/core/tools';
import {
  CALL_TOOL_NAME,
  createToolSearchEngine,
  type ResolvedTools,
  type ToolRun,
  type ToolSearchEngine,
  type ToolSearchSession,
} from 'tool-search-core';
import { describeTool } from './describe-tool';
import { engineEmbeddingOptions } from './embed-with-embeddings';
import { toolResultsFromMessages } from './tool-results';
import type { LangChainTool, ToolSearchOptions, ToolSearchRuntime } from './tool-search-options';

/** What the selector hands to `bindTools` and `ToolNode`. */
type BindableTool = StructuredToolInterface;

type Engine<TContext> = ToolSearchEngine<LangChainTool, ToolSearchRuntime<TContext>>;

/**
 * The tool search for a hand-built LangGraph loop: tools for the `ToolNode`, and what to bind each step.
 * @typeParam TContext - the agent's context type, as the filter sees it
 */
export interface ToolSearchSelector<TContext = unknown> {
  readonly engine: Engine<TContext>;
  /**
   * `search_tools`, then `load_tool` (unless autoLoad), `call_tool` (under `expose: 'proxy'`) and
   * `unload_tool` (when enabled), as LangChain tools.
   */
  readonly metaTools: BindableTool[];
  /**
   * Everything the `ToolNode` must know: the meta-tools, then each catalog tool behind a guard
   * that answers the model instead of running the tool when it is not pinned or loaded.
   */
  readonly tools: BindableTool[];
  /**
   * The system instruction that explains the meta-tools to the model (what {@link offer} gives a
   * call that searches).
   */
  readonly instructions: string;
  /**
   * What to give the model on its next call, as `toolSearch` decides for this request: while it
   * searches, the meta-tools, their instruction and the active catalog tools ({@link activeTools});
   * below the threshold, no meta-tools, no instruction, and every catalog tool the filter allows.
   * @param messages - the conversation so far (the graph's `messages`)
   * @param config - the node's config: `configurable.thread_id` names the thread
   */
  offer(
    messages: readonly BaseMessage[],
    config?: ToolSearchRuntime,
  ): Promise<{ metaTools: BindableTool[]; instructions: string; tools: BindableTool[] }>;
  /**
   * The tools to bind for the next model call: the meta-tools, then pinned and loaded catalog
   * tools in load order (append-only, so the prompt prefix stays cached); below the `toolSearch`
   * threshold, every catalog tool the filter allows and no meta-tools.
   * @param messages - the conversation so far (the graph's `messages`)
   * @param config - the node's config: `configurable.thread_id` names the thread
   */
  selectTools(
    messages: readonly BaseMessage[],
    config?: ToolSearchRuntime,
  ): Promise<BindableTool[]>;
  /**
   * The catalog tools {@link selectTools} appends, in its order: pinned then loaded tools, or
   * under `expose: 'proxy'` pinned tools only (loaded ones are run by `call_tool`).
   */
  activeTools(
    messages: readonly BaseMessage[],
    config?: ToolSearchRuntime,
  ): Promise<BindableTool[]>;
  /**
   * `undefined` when the catalog tool may run now, else the text to answer the model with.
   * Tools outside the catalog are not this selector's business and always pass.
   */
  checkToolCall(
    toolName: string,
    messages: readonly BaseMessage[],
    config?: ToolSearchRuntime,
  ): Promise<string | undefined>;
  /** Whether a name is one of the catalog's tools. */
  isCatalogTool(toolName: string): boolean;
  /**
   * The request-resolved tool (see `resolveTools`) a call names, or `undefined` when the name is
   * not one of the request's tools: what runs a loaded resolved tool, which no agent registered.
   */
  resolvedTool(toolName: string, config?: ToolSearchRuntime): Promise<BindableTool | undefined>;
}

/**
 * Creates the tool search for a hand-built LangGraph graph: register `tools` in the `ToolNode`,
 * bind `selectTools(messages, config)` before each model call.
 * @typeParam TContext - the graph's context type, typing `filter`'s `requestContext.context`
 * @param options - the catalog and the core's options (storage defaults to `'context'`)
 * @example
 * const search = createToolSearchSelector({ tools: catalog });
 * const callModel = async (state: typeof MessagesAnnotation.State, config: LangGraphRunnableConfig) =>
 *   ({ messages: [await model.bindTools(await search.selectTools(state.messages, config)).invoke(state.messages)] });
 * const toolNode = new ToolNode(search.tools);
 */
export function createToolSearchSelector<TContext = unknown>(
  options: ToolSearchOptions<TContext>,
): ToolSearchSelector<TContext> {
  const {
    tools: catalogTools,
    describe = describeTool,
    storage = 'context',
    embeddings,
    resolveTools,
    expose = 'proxy',
    toolSearch = 'auto',
    ...rest
  } = options;
  const catalog = toCatalogRecord(catalogTools);
  const engine: Engine<TContext> = createToolSearchEngine({
    ...rest,
    expose,
    toolSearch,
    ...(expose === 'proxy' && { runTool: invokeTool }),
    ...engineEmbeddingOptions({ embeddings, embed: rest.embed, fusion: rest.fusion }),
    tools: catalog,
    storage,
    describe: (tool, key) => {
      const descriptor = describe(tool);
      if (descriptor.id !== key) {
        throw new Error(
          `tool-search-langchain: describe() gave the tool "${key}" the id "${descriptor.id}"; the id must be the tool's name, which is what the model calls`,
        );
      }
      return descriptor;
    },
  });
  const resolvedSets = new WeakMap<readonly LangChainTool[], ResolvedTools<LangChainTool>>();
  /** The request's tools as the engine resolved them; the same array is resolved once. */
  const resolvedFor = async (
    runtime: ToolSearchRuntime | undefined,
  ): Promise<ResolvedTools<LangChainTool> | undefined> => {
    if (!resolveTools) return undefined;
    const resolved = await resolveTools(runtime);
    if (!Array.isArray(resolved)) {
      throw new TypeError('tool-search-langchain: resolveTools must return an array of tools');
    }
    let set = resolvedSets.get(resolved);
    if (!set) {
      // The array as it is: walking 10,000 tools is much cheaper than building a record of them.
      set = engine.resolveTools(resolved, { keyOf: keyOfTool });
      resolvedSets.set(resolved, set);
    }
    return set;
  };
  const sessionFor = async (
    messages: readonly BaseMessage[],
    runtime: ToolSearchRuntime | undefined,
  ): Promise<ToolSearchSession<LangChainTool, ToolSearchRuntime<TContext>>> =>
    engine.createSession({
      threadId: threadIdOf(runtime),
      // The runtime's `context` is what the agent was invoked with, which TContext describes.
      requestContext: runtime as ToolSearchRuntime<TContext> | undefined,
      resolvedTools: await resolvedFor(runtime),
      toolResults: toolResultsFromMessages(messages),
    });

  const template = engine.createSession();
  const metaTools = template.metaTools.map(
    (meta) =>
      createTool(
        async (input: unknown, runtime: ToolRuntimeLike) => {
          const session = await sessionFor(messagesOf(runtime?.state), runtime);
          if (meta.name === CALL_TOOL_NAME) {
            // The called tool's own answer (a ToolMessage with its artifact, or its content).
            const outcome = await session.callTool(input, runtime);
            return outcome.status === 'ran' ? outcome.result : JSON.stringify(outcome.output);
          }
          const execute = session.metaTools.find((candidate) => candidate.name === meta.name)!;
          return JSON.stringify(await execute.execute(input));
        },
        // The core's zod 4 object schema; LangChain validates with it before the call.
        { name: meta.name, description: meta.description, schema: meta.inputSchema as never },
      ) as unknown as BindableTool,
  );

  const notActive = (toolName: string): string =>
    engine.options.autoLoad
      ? `Tool "${toolName}" is not loaded. Call search_tools to find and load a tool for this task, then call it from your next step.`
      : `Tool "${toolName}" is not loaded. Call search_tools to find a tool for this task, load_tool to load it, then call it from your next step.`;

  const checkToolCall: ToolSearchSelector<TContext>['checkToolCall'] = async (
    toolName,
    messages,
    config,
  ) => {
    if (!Object.hasOwn(catalog, toolName)) {
      if (!(await resolvedFor(config))?.catalog.has(toolName)) return undefined;
    }
    return (await (await sessionFor(messages, config)).isActive(toolName))
      ? undefined
      : notActive(toolName);
  };

  const offer: ToolSearchSelector<TContext>['offer'] = async (messages, config) => {
    const offered = await (await sessionFor(messages, config)).offer();
    return {
      metaTools: offered.search ? metaTools : [],
      instructions: offered.instructions,
      tools: offered.tools.map((active) => active.tool as unknown as BindableTool),
    };
  };
  const activeTools: ToolSearchSelector<TContext>['activeTools'] = async (messages, config) =>
    (await offer(messages, config)).tools;

  const guarded = catalogTools.map((original) => guardTool(original, checkToolCall));

  return {
    engine,
    metaTools,
    tools: [...metaTools, ...guarded],
    instructions: template.instructions,
    offer,
    selectTools: async (messages, config) => {
      const offered = await offer(messages, config);
      return [...offered.metaTools, ...offered.tools];
    },
    activeTools,
    checkToolCall,
    isCatalogTool: (toolName) => Object.hasOwn(catalog, toolName),
    resolvedTool: async (toolName, config) => {
      const entry = (await resolvedFor(config))?.catalog.get(toolName);
      return entry?.tool as unknown as BindableTool | undefined;
    },
  };
}

/** The parts of LangChain's `ToolRuntime` read here; LangGraph's `ToolNode` passes the graph state. */
type ToolRuntimeLike = ToolSearchRuntime & { state?: unknown; toolCall?: unknown };

/**
 * Runs a catalog tool for `call_tool` as LangChain would: invoked with a tool call that carries
 * `call_tool`'s call id, it validates its input with its own schema and answers with its own
 * `ToolMessage` (artifact included), and the run's config makes its callbacks fire.
 */
function invokeTool({ tool, arguments: args, callOptions }: ToolRun<LangChainTool, unknown>) {
  const runtime = callOptions as ToolRuntimeLike | undefined;
  const callId = (runtime?.toolCall as { id?: unknown } | undefined)?.id;
  const input =
    typeof callId === 'string' ? { type: 'tool_call', id: callId, name: tool.name, args } : args;
  return tool.invoke(input as never, runtime as never);
}

/** A catalog tool for a plain `ToolNode`: same name, description and schema, run only when active. */
function guardTool(
  original: LangChainTool,
  check: ToolSearchSelector<unknown>['checkToolCall'],
): BindableTool {
  return createTool(
    async (input: unknown, runtime: ToolRuntimeLike) => {
      const refusal = await check(original.name, messagesOf(runtime?.state), runtime);
      if (refusal !== undefined) return refusal;
      // Invoked with the tool call, the original answers with its own ToolMessage (artifact included).
      return original.invoke((runtime?.toolCall ?? input) as never, runtime as never);
    },
    {
      name: original.name,
      description: original.description,
      schema: original.schema as never,
      ...(original.returnDirect && { returnDirect: true }),
    },
  ) as unknown as BindableTool;
}

function toCatalogRecord(tools: readonly LangChainTool[]): Record<string, LangChainTool> {
  if (!Array.isArray(tools))
    throw new TypeError('tool-search-langchain: `tools` must be an array of LangChain tools');
  const record: Record<string, LangChainTool> = {};
  for (const tool of tools) {
    if (typeof tool?.name !== 'string' || tool.name === '')
      throw new TypeError('tool-search-langchain: every tool in `tools` needs a name');
    if (Object.hasOwn(record, tool.name)) {
      throw new Error(
        `tool-search-langchain: two tools in \`tools\` are named "${tool.name}"; the model calls tools by name, so names must be unique`,
      );
    }
    Object.defineProperty(record, tool.name, { value: tool, enumerable: true });
  }
  return record;
}

function keyOfTool(tool: LangChainTool): string {
  return typeof tool?.name === 'string' ? tool.name : '';
}

/** LangGraph's `thread_id`, as its checkpointers read it. */
export function threadIdOf(runtime: ToolSearchRuntime | undefined): string | undefined {
  const threadId = runtime?.configurable?.thread_id;
  if (typeof threadId === 'string' && threadId !== '') return threadId;
  return typeof threadId === 'number' ? String(threadId) : undefined;
}

function messagesOf(state: unknown): readonly BaseMessage[] {
  if (Array.isArray(state)) return state as BaseMessage[];
  const messages = (state as { messages?: unknown } | null | undefined)?.messages;
  return Array.isArray(messages) ? (messages as BaseMessage[]) : [];
}
