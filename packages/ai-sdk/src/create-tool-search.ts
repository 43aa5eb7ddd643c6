import type { EmbeddingModel, Tool, ToolSet } from 'ai';
import {
  CALL_TOOL_NAME,
  createToolSearchEngine,
  type EmbedFunction,
  type ExposeMode,
  type FusionSettings,
  type LoadedToolsStore,
  type MetaTool,
  type ResolvedTools,
  type SearchSettings,
  type ToolFilter,
  type ToolIndexOptions,
  type ToolSearchEngine,
  type ToolSearchEvents,
  type ToolSearchMode,
  type ToolSearchSession,
  toToolRecord,
} from 'tool-search-core';
import { createRankTools, type RankTools } from './create-rank-tools';
import { type AiTool, describeAiTool } from './describe-ai-tool';
import { embeddingModelOptions } from './embed-with-model';
import { approvalOf, modelOutputOf, runAiTool } from './proxy-tool';
import { toolResultsFromMessages } from './tool-results-from-messages';

/** Names of the meta-tools `toolSearch.tools` adds (`call_tool` under `expose: 'proxy'`). */
export type MetaToolName = 'search_tools' | 'load_tool' | 'unload_tool' | 'call_tool';

/** A tool name of the catalog or a meta-tool. */
export type ToolSearchToolName<TTools extends ToolSet> = (keyof TTools & string) | MetaToolName;

/**
 * The tools to pass to `generateText` / `streamText`: under `'tools'` the catalog and the
 * meta-tools (`prepareStep` narrows them); under `'proxy'` the meta-tools and pinned tools only.
 */
export type ToolSearchTools<
  TTools extends ToolSet,
  TExpose extends ExposeMode = 'proxy',
> = TExpose extends 'proxy'
  ? // Which catalog tools are pinned is known at run time only: typed as any tool set.
    Record<MetaToolName, Tool> & ToolSet
  : TTools & Record<MetaToolName, Tool>;

/** Options of {@link createToolSearch}. */
export interface ToolSearchOptions<
  TTools extends ToolSet,
  TContext = unknown,
  TExpose extends ExposeMode = ExposeMode,
> extends ToolSearchEvents {
  /** The catalog: every tool the model may search for, keyed by the name the model loads. */
  tools: TTools;
  search?: SearchSettings;
  /**
   * How loaded tools reach the model. `'tools'`: `prepareStep` adds each loaded tool to the tools
   * sent to the model, which changes the start of the prompt, so the provider's prompt cache is
   * written anew after every load. `'proxy'`: the model's tools never change (the meta-tools,
   * `call_tool` among them, plus pinned tools); `load_tool` answers with the loaded tools'
   * definitions and the model runs them with `call_tool({ name, arguments })`, which checks the
   * arguments against the tool's schema and runs its `execute` (its `needsApproval` and
   * `toModelOutput` apply). A tool without `execute` (one your app answers) cannot be reached
   * through `call_tool`: pin it. The default, since it is what keeps a long conversation cheap.
   * @default 'proxy'
   */
  expose?: TExpose;
  /**
   * Tool search, or every tool given directly. `'auto'`: while the tools a call may use (those the
   * filter allows) weigh less than the core's `DEFAULT_TOOL_SEARCH_THRESHOLD` (3,000 estimated
   * tokens, where the cost benchmark finds searching starts to cost less than sending them),
   * `prepareStep` gives the model every tool and no meta-tools, the same set at every step; above
   * it, tool search. `true`: always tool search; `false`: never; `{ threshold }`: your own number of
   * tokens.
   * @default 'auto'
   */
  toolSearch?: ToolSearchMode;
  /**
   * Where loaded tools live. `'context'` derives them from the conversation's messages (the step
   * history, and the messages your app passes back on its next call): no server state.
   * `'in-memory'` and a store of yours keep them per thread (see `threadId`).
   * @default 'context'
   */
  storage?: 'context' | 'in-memory' | LoadedToolsStore;
  /**
   * The thread for `'in-memory'` and custom stores: a string, or a function of the call's context
   * (`runtimeContext` on ai 7, `experimental_context` on ai 5 and 6). Without one, a call keeps
   * its loads to itself, rebuilt from its messages.
   */
  threadId?: string | ((context: TContext | undefined) => string | undefined);
  /**
   * Idle time before an in-memory thread is forgotten, in ms; `0` disables expiry.
   * @default 3_600_000
   */
  ttl?: number;
  /**
   * Threads the in-memory store keeps at most.
   * @default 10_000
   */
  maxThreads?: number;
  /** Request-aware policy; its `requestContext` is the call's context. */
  filter?: ToolFilter<AiTool, TContext>;
  /**
   * A filter that has not answered after this many ms counts as "not allowed".
   * @default 3_000
   */
  filterTimeout?: number;
  /** Tools that are always active, without search or load. */
  alwaysLoaded?: readonly (keyof TTools & string)[];
  /** Loaded tools kept at most; the least recently used one is evicted. */
  maxLoadedTools?: number;
  /**
   * Offer `unload_tool`.
   * @default false
   */
  unloadTool?: boolean;
  /** Ranking options for the index. */
  index?: ToolIndexOptions;
  /**
   * Semantic search with an AI SDK embedding model (`openai.embedding('text-embedding-3-small')`,
   * a gateway model id...), called through `embedMany`: `search_tools` then fuses BM25F's ranking
   * with the embeddings' (see `fusion`). Each tool text is embedded once, each search's query
   * once; when the model fails, search answers with BM25F alone and `onError` says why.
   */
  embeddingModel?: EmbeddingModel;
  /** Semantic search with any embedding function instead of `embeddingModel`. */
  embed?: EmbedFunction;
  /** Fusion weights, `k`, the embedding timeout and batch size. */
  fusion?: FusionSettings;
  /**
   * What `toolSearch.engine.toSnapshot()` wrote at deploy time (the catalog's index and, with an
   * embedding model, the tool vectors), restored instead of indexing and embedding every tool at
   * start-up (see the core's `snapshot` option). A plain index snapshot is accepted too.
   */
  snapshot?: Uint8Array;
}

/**
 * What `prepareStep` receives, across ai 5, 6 and 7. Typed loosely so one function fits every
 * major's `prepareStep`.
 */
export interface PrepareStepInput {
  messages: readonly unknown[];
  steps?: readonly unknown[];
  stepNumber?: number;
  /** ai 7. */
  runtimeContext?: unknown;
  /** ai 7: per-tool contexts, passed to each tool's `execute`. */
  toolsContext?: unknown;
  /** ai 6 (ai 5's `prepareStep` gets no context). */
  experimental_context?: unknown;
}

/** What tool search sets for a step (besides `toolsContext` on ai 7, which carries the call's context to the meta-tools). */
export interface ToolSearchStepResult<TTools extends ToolSet> {
  /** Meta-tools, pinned tools, then loaded tools in load order. */
  activeTools: ToolSearchToolName<TTools>[];
  /** The same list: ai 7 sends tools in this order, so loads are appended and the prompt prefix stays cached. */
  toolOrder: ToolSearchToolName<TTools>[];
}

/** A `prepareStep` of yours to compose with tool search. */
export type UserPrepareStep<TInput> = (
  options: TInput,
) => PromiseLike<object | undefined> | object | undefined;

/** Options of {@link ToolSearch.createPrepareStep}. */
export interface CreatePrepareStepOptions<TInput, TContext> {
  /**
   * Your own `prepareStep`: its result is passed through. Its `activeTools` narrow ours; its
   * `messages` are the ones loads are read from; its `toolOrder` wins.
   */
  prepareStep?: UserPrepareStep<TInput>;
  /**
   * The call's context, for the filter and `threadId`. Needed on ai 5, whose `prepareStep`
   * receives none; on ai 6 and 7 it is read from the step.
   */
  context?: TContext;
}

/** The hooks of one request: what a `generateText` / `streamText` call is given. */
export interface ToolSearchCall<
  TTools extends ToolSet,
  TContext = unknown,
  TExpose extends ExposeMode = 'proxy',
> {
  /**
   * Pass it as `tools`: the catalog plus the meta-tools, or under `'proxy'` the meta-tools and
   * pinned tools.
   */
  tools: ToolSearchTools<TTools, TExpose>;
  /** Pass as `prepareStep`: it narrows `activeTools` to the meta-tools, pinned and loaded tools. */
  prepareStep: (options: PrepareStepInput) => Promise<ToolSearchStepResult<TTools>>;
  /**
   * Builds a `prepareStep` that composes yours and/or takes the call's context explicitly.
   * @example
   * prepareStep: toolSearch.createPrepareStep({ prepareStep: myPrepareStep, context: { userId } })
   */
  createPrepareStep<TInput extends PrepareStepInput = PrepareStepInput>(
    options?: CreatePrepareStepOptions<TInput, TContext>,
  ): (options: NoInfer<TInput>) => Promise<ToolSearchStepResult<TTools>>;
}

/** One request with tools of its own, from {@link ToolSearch.forRequest}. */
export interface ToolSearchRequest<
  TTools extends ToolSet,
  TContext = unknown,
  TExpose extends ExposeMode = 'proxy',
> extends ToolSearchCall<TTools, TContext, TExpose> {
  /**
   * The meta-tools bound to this request alone, for merging into a tool set of your own
   * (`tools` is that merge: the catalog, the request's tools and these).
   */
  metaTools: Record<MetaToolName, Tool>;
}

/** What {@link createToolSearch} returns. */
export interface ToolSearch<
  TTools extends ToolSet,
  TContext = unknown,
  TExpose extends ExposeMode = 'proxy',
> extends ToolSearchCall<TTools, TContext, TExpose> {
  /**
   * Tool search over the catalog plus tools resolved for one request (MCP tools with the caller's
   * credentials): they are searchable for this request alone, withheld until loaded, and a tool
   * of the same name in the catalog is shadowed. Call it once per request and pass its `tools`
   * and `prepareStep`; the record is read at the request's first step, so a change to it needs a
   * new `forRequest`. Tool objects seen before are not described or indexed again, so hand the
   * same objects back when they have not changed.
   * @param tools - the request's tools, keyed by the name the model loads them by
   * @example
   * const request = toolSearch.forRequest(await mcpClient.tools());
   * await generateText({ model, tools: request.tools, prepareStep: request.prepareStep, prompt });
   */
  forRequest<TResolved extends ToolSet>(
    tools: TResolved,
  ): ToolSearchRequest<TTools & TResolved, TContext, TExpose>;
  /**
   * A system-prompt paragraph that explains the meta-tools to the model; empty when `toolSearch`
   * gives the catalog directly (with a filter that leaves a large catalog small for some calls,
   * those calls get every tool directly while this still explains the meta-tools).
   */
  instructions: string;
  /**
   * Our ranking for ai 7's native tool search: `toolSearch({ search: toolSearch.rankTools })`
   * from `ai`. It ranks the deferred tools it is given (by schema too, when they are in `tools`).
   */
  rankTools: RankTools;
  /** The core engine: state management (`clearState`, `getStateStats`...) and the index. */
  engine: ToolSearchEngine<AiTool, TContext>;
}

/**
 * Tool search for the AI SDK: every tool stays in `tools`, `prepareStep` narrows them with
 * `activeTools` to what the model has searched for and loaded. Works with `generateText`,
 * `streamText` and `ToolLoopAgent` on ai 5, 6 and 7.
 * @param options - the catalog, search settings, storage, filter, pins, budget, events
 * @example
 * const toolSearch = createToolSearch({ tools: catalog, search: { topK: 5 } });
 * const result = await generateText({
 *   model, tools: toolSearch.tools, prepareStep: toolSearch.prepareStep, stopWhen: stepCountIs(10), prompt,
 * });
 */
export function createToolSearch<
  TTools extends ToolSet,
  TContext = unknown,
  TExpose extends ExposeMode = 'proxy',
>(options: ToolSearchOptions<TTools, TContext, TExpose>): ToolSearch<TTools, TContext, TExpose> {
  const {
    threadId,
    storage = 'context',
    embeddingModel,
    expose = 'proxy',
    toolSearch = 'auto',
    ...engineOptions
  } = options;
  const proxy = expose === 'proxy';
  // Below the threshold the catalog's tools are given directly, so they must be among `tools`.
  const mayGiveDirectly = toolSearch !== true;
  const engine = createToolSearchEngine<AiTool, TContext>({
    ...engineOptions,
    ...embeddingModelOptions('createToolSearch', embeddingModel, engineOptions),
    storage,
    expose,
    toolSearch,
    ...(proxy && { runTool: runAiTool }),
    describe: describeAiTool,
  });
  const threadOf = (context: TContext | undefined): string | undefined =>
    typeof threadId === 'function' ? threadId(context) : threadId;
  const probe = engine.createSession();
  const metaNames = probe.metaTools.map((metaTool) => metaTool.name as MetaToolName);

  /** The meta-tools and `prepareStep` of calls whose request-resolved tools are `resolvedTools`. */
  const bind = (resolvedTools: ToolSet | undefined) => {
    // Described and indexed at the request's first step, then shared by all its steps.
    let resolved: ResolvedTools<AiTool> | undefined;
    const sessionFor = (
      context: TContext | undefined,
      messages: readonly unknown[] | undefined,
    ): ToolSearchSession<AiTool, TContext> => {
      if (resolvedTools && !resolved) resolved = engine.resolveTools(resolvedTools);
      return engine.createSession({
        threadId: threadOf(context),
        requestContext: context,
        resolvedTools: resolved,
        toolResults: toolResultsFromMessages(messages),
      });
    };
    /** The tool a name stands for in these calls: the request's own before the catalog's. */
    const toolOf = (name: string): AiTool | undefined => {
      if (resolvedTools && Object.hasOwn(resolvedTools, name)) return resolvedTools[name];
      return engine.catalog.get(engine.catalog.idOf(name) ?? '')?.tool;
    };
    const metaTools = Object.fromEntries(
      probe.metaTools.map((metaTool) => {
        const aiTool = toAiTool(metaTool, sessionFor);
        if (metaTool.name !== CALL_TOOL_NAME) return [metaTool.name, aiTool];
        return [
          metaTool.name,
          { ...aiTool, needsApproval: approvalOf(toolOf), toModelOutput: modelOutputOf(toolOf) },
        ];
      }),
    ) as Record<MetaToolName, Tool>;
    const createPrepareStep = <TInput extends PrepareStepInput>(
      stepOptions: CreatePrepareStepOptions<TInput, TContext> = {},
    ) => {
      const hasContext = 'context' in stepOptions;
      return async (input: TInput): Promise<ToolSearchStepResult<TTools>> => {
        const context = (
          hasContext ? stepOptions.context : (input.runtimeContext ?? input.experimental_context)
        ) as TContext | undefined;
        const userResult = ((await stepOptions.prepareStep?.(input)) ?? {}) as {
          activeTools?: readonly string[];
          toolOrder?: readonly string[];
          messages?: readonly unknown[];
          toolsContext?: Record<string, unknown>;
        };
        const session = sessionFor(context, userResult.messages ?? input.messages);
        if (!proxy) await recheckLastCalls(session, input.steps);
        const offer = await session.offer();
        const active = [
          ...offer.metaTools.map((metaTool) => metaTool.name),
          ...offer.tools.map((tool) => tool.id),
        ];
        const narrowed = userResult.activeTools
          ? active.filter((name) => userResult.activeTools!.includes(name))
          : active;
        const names = narrowed as ToolSearchToolName<TTools>[];
        return {
          ...userResult,
          activeTools: names,
          toolOrder: (userResult.toolOrder as ToolSearchToolName<TTools>[] | undefined) ?? names,
          // ai 7 gives a tool's execute only its own `toolsContext` entry, never `runtimeContext`.
          toolsContext: {
            ...(input.toolsContext as Record<string, unknown> | undefined),
            ...userResult.toolsContext,
            ...Object.fromEntries(metaNames.map((name) => [name, context])),
          },
        } as ToolSearchStepResult<TTools>;
      };
    };
    return { metaTools, createPrepareStep, prepareStep: createPrepareStep() };
  };

  const base = bind(undefined);
  // Under proxy the catalog is reached through call_tool: only pinned tools are tools of their own,
  // unless `toolSearch` may give the catalog directly.
  const ownTools: ToolSet =
    proxy && !mayGiveDirectly
      ? toToolRecord(
          (engine.options.alwaysLoaded ?? []).flatMap((id) => {
            const entry = engine.catalog.get(id);
            return entry ? [[entry.key, entry.tool] as const] : [];
          }),
        )
      : options.tools;
  return {
    tools: { ...base.metaTools, ...ownTools } as ToolSearchTools<TTools, TExpose>,
    prepareStep: base.prepareStep,
    createPrepareStep: base.createPrepareStep,
    forRequest: <TResolved extends ToolSet>(resolved: TResolved) => {
      if (!resolved || typeof resolved !== 'object') {
        throw new TypeError('tool-search-ai-sdk: forRequest(tools) takes a record of tools');
      }
      const request = bind(resolved);
      let merged: (TTools & TResolved & Record<MetaToolName, Tool>) | undefined;
      return {
        metaTools: request.metaTools,
        prepareStep: request.prepareStep,
        createPrepareStep: request.createPrepareStep,
        // Merged on first read: the catalog and the request's tools can be large.
        get tools() {
          // Spread (own data properties, so a tool named `__proto__` stays a tool); the
          // meta-tools go first for their place and last so that no request tool replaces them.
          merged ??= {
            ...request.metaTools,
            ...ownTools,
            ...(proxy && !mayGiveDirectly ? {} : resolved),
            ...request.metaTools,
          } as TTools & TResolved & Record<MetaToolName, Tool>;
          return merged;
        },
      } as ToolSearchRequest<TTools & TResolved, TContext, TExpose>;
    },
    // Without a filter the catalog alone decides; with one, a request may differ (see `instructions`).
    instructions: engine.searchesCatalog ? probe.instructions : '',
    rankTools: createRankTools(engine),
    engine,
  };
}

/** Wraps a core meta-tool as an AI SDK tool whose calls each get a session of their own call. */
function toAiTool<TContext>(
  metaTool: MetaTool,
  sessionFor: (
    context: TContext | undefined,
    messages: readonly unknown[] | undefined,
  ) => ToolSearchSession<AiTool, TContext>,
): Tool {
  return {
    description: metaTool.description,
    inputSchema: metaTool.inputSchema,
    execute: (input: unknown, callOptions: { messages?: unknown[] }) => {
      // ai 7 passes the tool's `toolsContext` entry as `context`; ai 5 and 6 pass `experimental_context`.
      const { context, experimental_context } = callOptions as {
        context?: unknown;
        experimental_context?: unknown;
      };
      const session = sessionFor(
        (context ?? experimental_context) as TContext | undefined,
        callOptions.messages,
      );
      const bound = session.metaTools.find((candidate) => candidate.name === metaTool.name)!;
      return bound.execute(input, callOptions);
    },
  } as Tool;
}

/**
 * Re-checks the catalog tools the model called in the last step: a call to a tool it never
 * loaded is reported (`onDenied`, phase `execute`; the AI SDK did not run it), and a call to a
 * loaded tool counts as a use for the `maxLoadedTools` budget.
 */
async function recheckLastCalls<TContext>(
  session: ToolSearchSession<AiTool, TContext>,
  steps: readonly unknown[] | undefined,
): Promise<void> {
  const last = steps?.at(-1) as { toolCalls?: { toolName?: unknown; invalid?: unknown }[] };
  const budgeted = session.engine.options.maxLoadedTools !== undefined;
  for (const call of last?.toolCalls ?? []) {
    if (typeof call.toolName !== 'string' || !session.lookup(call.toolName)) continue;
    if (budgeted || call.invalid === true) await session.isActive(call.toolName);
  }
}
