import type {
  ProcessInputStepArgs,
  ProcessInputStepResult,
  Processor,
} from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import {
  type ActiveTool,
  CALL_TOOL_NAME,
  catalogInstructions,
  createToolSearchEngine,
  META_TOOL_NAMES,
  type StateStats,
  type ToolSearchEngine,
  type ToolSearchSession,
  toToolRecord,
} from 'tool-search-core';
import { describeMastraTool } from './describe-mastra-tool';
import { engineEmbeddingOptions } from './embed-with-embedder';
import { latestUserText } from './latest-user-text';
import { Preselector, registeredClassifier } from './preselect-step';
import { keepRequestResult, requestResultsOf } from './request-results';
import { RequestStates } from './request-states';
import { threadIdOf } from './thread-id-of';
import { runMastraTool, toMastraMetaTool } from './to-mastra-tools';
import { type RunChecks, toStepTool } from './to-step-tool';
import { toolResultsOf } from './tool-results-of';
import type { AnyMastraTool, ToolSearchProcessorOptions } from './tool-search-processor-options';

/** What a step or an approval resume gives us to build a session from. */
interface RequestView {
  requestContext: RequestContext | undefined;
  tools: Record<string, unknown> | undefined;
  messages: readonly unknown[] | undefined;
  /** The request's state (see {@link RequestStates}), which carries its meta-tool results. */
  state: Record<string, unknown> | undefined;
}

/**
 * A drop-in for Mastra's `ToolSearchProcessor`: the same options, methods and meta-tool result
 * shapes, with tool-search-core's ranking, per-request isolation and safety underneath.
 * @example
 * const agent = new Agent({
 *   id: 'assistant',
 *   name: 'Assistant',
 *   model,
 *   instructions: 'Search for tools when you need a capability you do not have.',
 *   inputProcessors: [new ToolSearchProcessor({ tools: allTools, search: { topK: 5 } })],
 * });
 */
export class ToolSearchProcessor implements Processor<'tool-search'> {
  readonly id = 'tool-search';
  readonly name = 'Tool Search Processor';
  readonly description = 'Lets the agent search a large tool catalog and load tools on demand';
  readonly #engine: ToolSearchEngine<AnyMastraTool, RequestContext>;
  readonly #includeResolvedTools: boolean;
  readonly #injectCatalog: boolean;
  readonly #preselector: Preselector | undefined;
  readonly #runChecks: RunChecks;
  readonly #requestStates = new RequestStates();
  #mastra: unknown;
  /**
   * Names `getLoadedToolsForRequestContext` returned, per request context: an agent converts
   * those tools and adds them to the request's own tools, where `processInputStep` must tell them
   * from the agent's.
   */
  readonly #handedOut = new WeakMap<object, Set<string>>();

  /** @param options - Mastra's options (`tools`, `search`, `storage`, `ttl`, `filter`...) plus ours */
  constructor(options: ToolSearchProcessorOptions) {
    const {
      includeResolvedTools,
      injectCatalog,
      filter,
      deferredFilter,
      preselect,
      embedder,
      embedderOptions,
      ...engineOptions
    } = options ?? {};
    this.#includeResolvedTools = includeResolvedTools === true;
    this.#injectCatalog = injectCatalog === true;
    this.#engine = createToolSearchEngine<AnyMastraTool, RequestContext>({
      ...engineOptions,
      ...engineEmbeddingOptions({ ...engineOptions, embedder, embedderOptions }),
      ...(engineOptions.expose === 'proxy' && { runTool: runMastraTool }),
      describe: describeMastraTool,
      ...(filter && {
        filter: ({ toolName, tool, requestContext, phase }) =>
          filter({ toolName, tool, requestContext, phase }),
      }),
      ...(deferredFilter && {
        deferredFilter: ({ toolName, tool, requestContext, phase }) =>
          deferredFilter({ toolName, tool, requestContext, phase }),
      }),
    });
    this.#runChecks = {
      filter: filter !== undefined,
      deferredFilter: deferredFilter !== undefined,
      budget: engineOptions.maxLoadedTools !== undefined,
    };
    this.#preselector =
      preselect === undefined
        ? undefined
        : new Preselector(preselect, {
            maxThreads: engineOptions.maxThreads,
            onError: engineOptions.onError,
            lookup: (id) => registeredClassifier(this.#mastra, id),
          });
  }

  /** The core engine underneath: its index, its store, its state methods. */
  get engine(): ToolSearchEngine<AnyMastraTool, RequestContext> {
    return this.#engine;
  }

  /**
   * Called by Mastra when the agent is registered, so `preselect` can find a classifier given by
   * its id.
   * @param mastra - the Mastra instance
   */
  __registerMastra(mastra: unknown): void {
    this.#mastra = mastra;
  }

  /**
   * Offers the meta-tools, the agent's own tools (withheld under `includeResolvedTools`) and the
   * pinned and loaded tools, in that order, and explains the meta-tools in a system message. With
   * `preselect`, first loads tools from the user's message (once per message). When `toolSearch`
   * gives every tool directly (below its threshold), offers the agent's own tools and every
   * catalog tool the filter allows, and no meta-tools.
   * @param args - Mastra's step arguments
   * @throws when an agent tool takes a meta-tool's name, or a loaded tool's name belongs to a
   *   different agent tool: either would silently replace one tool with another
   */
  async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult> {
    const agentTools = args.tools ?? {};
    const reserved =
      this.#engine.options.expose === 'proxy'
        ? [...META_TOOL_NAMES, CALL_TOOL_NAME]
        : META_TOOL_NAMES;
    for (const name of reserved) {
      if (Object.hasOwn(agentTools, name)) {
        throw new Error(
          `ToolSearchProcessor cannot add its "${name}" meta-tool: the agent's tool set already defines that name. Rename the agent's tool.`,
        );
      }
    }
    const state = this.#requestStates.of(args);
    const session = this.#createSession({
      requestContext: args.requestContext,
      tools: args.tools,
      messages: args.messages,
      state,
    });
    // Below the `toolSearch` threshold every tool is given directly: nothing to search or explain.
    const search = await session.usesSearch();
    if (search) {
      args.messageList.addSystem(session.instructions);
      await this.#preselector?.run({ session, message: latestUserText(args), requestState: state });
    }
    if (search && this.#injectCatalog) {
      const listed = (await session.listTools('search')).map(({ descriptor }) => descriptor);
      const catalog = catalogInstructions(listed, { autoLoad: session.engine.options.autoLoad });
      if (catalog) args.messageList.addSystem(catalog);
    }
    // Without a store (storage 'context', or no thread) a load lives in the messages; until the
    // next step's messages show it, the request's state carries it.
    const keep = session.usesStore
      ? undefined
      : (toolName: string) => (output: unknown, toolCallId: string | undefined) =>
          keepRequestResult(state, { toolCallId, record: { toolName, output } });
    const ownTools = this.#includeResolvedTools ? {} : this.#agentOwnTools(agentTools, session);
    const loaded: [string, AnyMastraTool][] = [];
    // After a preselect, which may have loaded tools for this step.
    const offer = await session.offer();
    for (const active of offer.tools) {
      const { id, tool } = active;
      if (Object.hasOwn(ownTools, id)) {
        // The same tool given to the agent too: offered once, as the agent's.
        if (isSameTool(ownTools[id], tool)) continue;
        throw new Error(
          `ToolSearchProcessor: the loaded tool "${id}" conflicts with an always-available input tool of the same name (the agent's own tools). Rename one of them.`,
        );
      }
      loaded.push([id, this.#toStepTool(active, session)]);
    }
    // Built with own properties: a tool named `__proto__` stays a tool (see toToolRecord).
    const tools = toToolRecord<unknown>([
      ...offer.metaTools.map(
        (metaTool) => [metaTool.name, toMastraMetaTool(metaTool, keep?.(metaTool.name))] as const,
      ),
      ...Object.entries(ownTools),
      ...loaded,
    ]);
    return { tools };
  }

  /**
   * The pinned and loaded tools of a request, for Mastra's approval-resume path, which rebuilds
   * tools without running `processInputStep` (an agent also adds them to each new request's own
   * tools, which is why `processInputStep` recognises them there).
   * @param args - the request context, and the step's arguments, resolved tools or persisted
   *   messages when known
   */
  async getLoadedToolsForRequestContext(
    args: {
      requestContext?: RequestContext;
      stepArgs?: ProcessInputStepArgs;
      tools?: Record<string, unknown>;
      /** The conversation's messages, when the caller has them but no step (storage `'context'`). */
      messages?: readonly unknown[];
    } = {},
  ): Promise<Record<string, AnyMastraTool>> {
    const requestContext = args.requestContext ?? args.stepArgs?.requestContext;
    const session = this.#createSession({
      requestContext,
      tools: args.stepArgs?.tools ?? args.tools,
      messages: args.stepArgs?.messages ?? args.messages,
      state: args.stepArgs
        ? this.#requestStates.of(args.stepArgs)
        : this.#requestStates.peek(requestContext),
    });
    const tools = await this.#loadedTools(session);
    if (requestContext && typeof requestContext === 'object') {
      const names = this.#handedOut.get(requestContext) ?? new Set<string>();
      for (const name of Object.keys(tools)) names.add(name);
      this.#handedOut.set(requestContext, names);
    }
    return tools;
  }

  /**
   * Forgets one thread's loaded tools (in-memory or custom store; a no-op under `'context'`).
   * @param threadId - the thread; without one there is nothing to clear, as no state is shared
   */
  clearState(threadId?: string): Promise<void> {
    return threadId === undefined ? Promise.resolve() : this.#engine.clearState(threadId);
  }

  /** Forgets every thread of the in-memory store. */
  clearAllState(): void {
    this.#engine.clearAllState();
  }

  /** Thread count and oldest access time of the in-memory store; zeros for other storage. */
  getStateStats(): StateStats {
    return this.#engine.getStateStats();
  }

  /** Drops expired in-memory threads now and returns how many. */
  cleanupNow(): number {
    return this.#engine.cleanupNow();
  }

  /**
   * Embeds every catalog tool that has no vector yet, so the first searches need not wait for it.
   * A no-op without `embedder` or `embed`.
   * @throws an `EmbeddingError` when the embedder failed (also reported to `onError`)
   */
  warmEmbeddings(): Promise<void> {
    return this.#engine.warmEmbeddings();
  }

  /**
   * The catalog's index and, with `embedder` or `embed`, the tool vectors embedded so far, as
   * bytes: pass them as the `snapshot` option of a processor with the same tools, `index` options
   * and model, which then neither indexes nor embeds the catalog again.
   * @example
   * const processor = new ToolSearchProcessor({ tools, embedder });
   * await processor.warmEmbeddings();
   * writeFileSync('tools.snapshot', processor.toSnapshot());
   */
  toSnapshot(): Uint8Array {
    return this.#engine.toSnapshot();
  }

  /** Stops the in-memory store's cleanup timer (it never keeps the process alive anyway). */
  dispose(): void {
    this.#engine.dispose();
  }

  #createSession(request: RequestView): ToolSearchSession<AnyMastraTool, RequestContext> {
    const resolvedTools = this.#includeResolvedTools
      ? (request.tools as Record<string, AnyMastraTool> | undefined)
      : undefined;
    const conversation = toolResultsOf(request.messages);
    return this.#engine.createSession({
      threadId: threadIdOf(request.requestContext),
      requestContext: request.requestContext,
      resolvedTools,
      toolResults: conversation.records,
      requestResults: requestResultsOf(request.state, conversation.callIds),
    });
  }

  /** The tool to offer for an active tool (see {@link toStepTool}). */
  #toStepTool(
    active: ActiveTool<AnyMastraTool>,
    session: ToolSearchSession<AnyMastraTool, RequestContext>,
  ): AnyMastraTool {
    return toStepTool(active, session, this.#runChecks);
  }

  /**
   * The agent's own tools, without the copies of tools this processor loaded that the agent added
   * back (see `#handedOut`): those are offered as loaded tools, in load order, while still loaded.
   */
  #agentOwnTools(
    agentTools: Record<string, unknown>,
    session: ToolSearchSession<AnyMastraTool, RequestContext>,
  ): Record<string, unknown> {
    const handedOut = session.requestContext && this.#handedOut.get(session.requestContext);
    if (!handedOut) return agentTools;
    return toToolRecord(
      Object.entries(agentTools).filter(([name, tool]) => {
        const entry = handedOut.has(name) ? session.lookup(name) : undefined;
        return !(entry && isSameTool(tool, entry.tool));
      }),
    );
  }

  async #loadedTools(
    session: ToolSearchSession<AnyMastraTool, RequestContext>,
  ): Promise<Record<string, AnyMastraTool>> {
    const offered = await session.offeredTools();
    return toToolRecord(offered.map((tool) => [tool.id, this.#toStepTool(tool, session)]));
  }
}

/**
 * Whether an agent's tool is the catalog tool itself or Mastra's converted copy of it (Mastra
 * turns tools into copies that keep the tool's `id` and `description`, not the object).
 */
function isSameTool(candidate: unknown, tool: AnyMastraTool): boolean {
  if (candidate === tool) return true;
  const fields = candidate as { id?: unknown; description?: unknown } | undefined;
  return (
    typeof fields?.id === 'string' &&
    fields.id === tool.id &&
    fields.description === tool.description
  );
}
