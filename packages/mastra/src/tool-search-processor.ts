import type {
  ProcessInputStepArgs,
  ProcessInputStepResult,
  Processor,
} from '@mastra/core/processors';
import type { RequestContext } from '@mastra/core/request-context';
import {
  catalogInstructions,
  createToolSearchEngine,
  META_TOOL_NAMES,
  type StateStats,
  type ToolSearchEngine,
  type ToolSearchSession,
  toToolRecord,
} from 'tool-search-core';
import { describeMastraTool } from './describe-mastra-tool';
import { threadIdOf } from './thread-id-of';
import { guardLoadedTool, toMastraMetaTool } from './to-mastra-tools';
import { toolResultsOf } from './tool-results-of';
import type { AnyMastraTool, ToolSearchProcessorOptions } from './tool-search-processor-options';

/** What a step or an approval resume gives us to build a session from. */
interface RequestView {
  requestContext: RequestContext | undefined;
  tools: Record<string, unknown> | undefined;
  messages: readonly unknown[] | undefined;
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

  /** @param options - Mastra's options (`tools`, `search`, `storage`, `ttl`, `filter`...) plus ours */
  constructor(options: ToolSearchProcessorOptions) {
    const { includeResolvedTools, injectCatalog, filter, ...engineOptions } = options ?? {};
    this.#includeResolvedTools = includeResolvedTools === true;
    this.#injectCatalog = injectCatalog === true;
    this.#engine = createToolSearchEngine<AnyMastraTool, RequestContext>({
      ...engineOptions,
      describe: describeMastraTool,
      ...(filter && {
        filter: ({ toolName, tool, requestContext, phase }) =>
          filter({ toolName, tool, requestContext, phase }),
      }),
    });
  }

  /**
   * Offers the meta-tools, the agent's own tools (withheld under `includeResolvedTools`) and the
   * pinned and loaded tools, in that order, and explains the meta-tools in a system message.
   * @param args - Mastra's step arguments
   */
  async processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult> {
    const session = this.#createSession({
      requestContext: args.requestContext,
      tools: args.tools,
      messages: args.messages,
    });
    args.messageList.addSystem(session.instructions);
    if (this.#injectCatalog) {
      const listed = (await session.listTools('search')).map(({ descriptor }) => descriptor);
      const catalog = catalogInstructions(listed, { autoLoad: session.engine.options.autoLoad });
      if (catalog) args.messageList.addSystem(catalog);
    }
    const ownTools = this.#includeResolvedTools
      ? []
      : Object.entries(args.tools ?? {}).filter(([name]) => !isMetaToolName(name));
    // Built with own properties: a tool named `__proto__` stays a tool (see toToolRecord).
    const tools = toToolRecord<unknown>([
      ...session.metaTools.map((metaTool) => [metaTool.name, toMastraMetaTool(metaTool)] as const),
      ...ownTools,
      ...Object.entries(await this.#loadedTools(session)),
    ]);
    return { tools };
  }

  /**
   * The pinned and loaded tools of a request, for Mastra's approval-resume path, which rebuilds
   * tools without running `processInputStep`.
   * @param args - the request context, and the step's arguments or resolved tools when known
   */
  async getLoadedToolsForRequestContext(
    args: {
      requestContext?: RequestContext;
      stepArgs?: ProcessInputStepArgs;
      tools?: Record<string, unknown>;
    } = {},
  ): Promise<Record<string, AnyMastraTool>> {
    const session = this.#createSession({
      requestContext: args.requestContext ?? args.stepArgs?.requestContext,
      tools: args.stepArgs?.tools ?? args.tools,
      messages: args.stepArgs?.messages,
    });
    return this.#loadedTools(session);
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

  /** Stops the in-memory store's cleanup timer (it never keeps the process alive anyway). */
  dispose(): void {
    this.#engine.dispose();
  }

  #createSession(request: RequestView): ToolSearchSession<AnyMastraTool, RequestContext> {
    const resolvedTools = this.#includeResolvedTools
      ? (request.tools as Record<string, AnyMastraTool> | undefined)
      : undefined;
    return this.#engine.createSession({
      threadId: threadIdOf(request.requestContext),
      requestContext: request.requestContext,
      resolvedTools,
      toolResults: toolResultsOf(request.messages),
    });
  }

  async #loadedTools(
    session: ToolSearchSession<AnyMastraTool, RequestContext>,
  ): Promise<Record<string, AnyMastraTool>> {
    const active = await session.activeTools();
    return toToolRecord(active.map(({ id, tool }) => [id, guardLoadedTool(tool, id, session)]));
  }
}

function isMetaToolName(name: string): boolean {
  return (META_TOOL_NAMES as readonly string[]).includes(name);
}
