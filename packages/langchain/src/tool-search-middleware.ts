import { ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createMiddleware } from 'langchain';
import type { ToolSearchOptions } from './tool-search-options';
import { createToolSearchSelector, type ToolSearchSelector } from './tool-search-selector';

/**
 * Options of {@link toolSearchMiddleware}.
 * @typeParam TContext - the agent's context type, as `filter` reads it from `requestContext.context`
 */
export interface ToolSearchMiddlewareOptions<TContext = unknown>
  extends ToolSearchOptions<TContext> {
  /**
   * Appended to the system message so the model knows the meta-tools, on the calls that search
   * (none when `toolSearch` gives every tool directly); `false` leaves the system message alone.
   * It is the same text every step, so the cached prefix stays stable.
   * @default the core's instruction for the configured options
   */
  instructions?: string | false;
}

/**
 * Tool search for langchain v1 `createAgent`: registers the meta-tools and the catalog, sends the
 * model only the meta-tools, pinned and loaded tools (plus the agent's own tools), and answers
 * a call to a tool that is not active with a tool message instead of running it. The returned
 * middleware carries the core `engine` (state: `clearState`, `getStateStats`; the index).
 * @typeParam TContext - the agent's context type (createAgent's `contextSchema`), typing `filter`'s `requestContext.context`
 * @param options - the catalog and the core's options (storage defaults to `'context'`)
 * @example
 * const agent = createAgent({ model, tools: [], middleware: [toolSearchMiddleware({ tools: catalog })] });
 * await agent.invoke({ messages: [new HumanMessage('...')] }, { configurable: { thread_id: 't1' } });
 */
export function toolSearchMiddleware<TContext = unknown>(
  options: ToolSearchMiddlewareOptions<TContext>,
) {
  const { instructions, ...searchOptions } = options;
  const search: ToolSearchSelector<TContext> = createToolSearchSelector(searchOptions);
  const instruction = instructions === undefined ? search.instructions : instructions;
  const metaNames = new Set(search.metaTools.map((tool) => tool.name));
  // createAgent hands every model call the same array of registered tools: split it once.
  const partitions = new WeakMap<readonly unknown[], Partition>();
  const partitionOf = <TTool>(tools: readonly TTool[]): Partition<TTool> => {
    let partition = partitions.get(tools) as Partition<TTool> | undefined;
    if (!partition || partition.length !== tools.length) {
      partition = { length: tools.length, kept: [], registered: new Map() };
      for (const tool of tools) {
        const name = toolName(tool);
        if (name !== undefined) partition.registered.set(name, tool);
        if (!search.isCatalogTool(name ?? '')) partition.kept.push(tool);
      }
      partitions.set(tools, partition as Partition);
    }
    return partition;
  };
  const middleware = createMiddleware({
    name: 'ToolSearchMiddleware',
    tools: [...search.metaTools, ...(options.tools as unknown as StructuredToolInterface[])],
    wrapModelCall: async (request, handler) => {
      const offer = await search.offer(request.state.messages, request.runtime);
      const searching = offer.metaTools.length > 0;
      // Keep the agent's own tools and the meta-tools where they are (no meta-tools when every
      // tool is given directly); append active catalog tools in load order. Instances come from
      // `request.tools`: createAgent rejects look-alikes. A request-resolved tool was never
      // registered: it is added as is, and run by wrapToolCall.
      const { kept, registered } = partitionOf(request.tools);
      const tools: typeof request.tools = [
        ...(searching ? kept : kept.filter((tool) => !metaNames.has(toolName(tool) ?? ''))),
        ...offer.tools.flatMap((tool) => {
          const instance = search.isCatalogTool(tool.name)
            ? registered.get(tool.name)
            : (tool as unknown as (typeof request.tools)[number]);
          return instance ? [instance] : [];
        }),
      ];
      return handler({
        ...request,
        tools,
        ...(instruction &&
          searching && { systemMessage: request.systemMessage.concat(`\n\n${instruction}`) }),
      });
    },
    wrapToolCall: async (request, handler) => {
      const { name, id } = request.toolCall;
      let refusal: string | undefined;
      let resolved: StructuredToolInterface | undefined;
      try {
        refusal = await search.checkToolCall(name, request.state.messages, request.runtime);
        // The request's own instance runs, even where a catalog tool of that name is registered.
        if (refusal === undefined) resolved = await search.resolvedTool(name, request.runtime);
      } catch {
        // The core answers store and filter failures itself; anything else still refuses.
        refusal = `Tool "${name}" cannot run right now. Try again.`;
      }
      // A throw here would end the whole invocation: answer the model instead.
      if (refusal !== undefined)
        return new ToolMessage({ content: refusal, tool_call_id: id ?? '', name, status: 'error' });
      return handler(resolved ? { ...request, tool: resolved as typeof request.tool } : request);
    },
  });
  // The engine, for what the agent does not do itself: `clearState`, `getStateStats`, snapshots.
  return Object.assign(middleware, { engine: search.engine });
}

/** The registered tools of a model call, split once per array. */
interface Partition<TTool = unknown> {
  length: number;
  /** Tools that are not catalog tools (the agent's own and the meta-tools), in order. */
  kept: TTool[];
  registered: Map<string, TTool>;
}

function toolName(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}
