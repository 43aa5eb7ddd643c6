import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import {
  type ActiveTool,
  CALL_TOOL_NAME,
  type CallToolOutcome,
  type CallToolRefusal,
  type ToolRun,
  type ToolSearchEngine,
  type ToolSearchSession,
} from 'tool-search-core';
import type { ExposeMode, ToolSearchConfig } from '../config/gateway-config';
import { type UpstreamCallOptions, UpstreamError } from '../upstream/upstream-connection';
import type {
  GatewayTool,
  UnsearchableServer,
  UpstreamManager,
} from '../upstream/upstream-manager';
import { isNestedDeeperThan, MAX_ARGUMENT_DEPTH } from './argument-depth';
import type { ForwardOptions } from './forward-options';
import { echo, errorResult } from './gateway-text';

/** What {@link ToolCalls} reads from the gateway. */
export interface ToolCallsHost {
  /** The core engine over the current upstream tools. */
  readonly engine: ToolSearchEngine<GatewayTool>;
  readonly upstreams: UpstreamManager;
  readonly toolSearch: ToolSearchConfig;
  /** The server of an exposed name whose upstream tool has gone, or `undefined`. */
  vanishedFrom(name: string): string | undefined;
}

/** One `tools/call` as a session hands it over. */
export interface ToolCallRequest {
  /** The thread whose loaded tools the call may use; none: only pinned ones, and nothing is kept. */
  threadId: string | undefined;
  name: string;
  args: Record<string, unknown> | undefined;
  /** How this session's client sees loaded tools. */
  expose: ExposeMode;
  /** The caller's cancellation and progress, handed to the upstream with a forwarded call. */
  forward: ForwardOptions;
  /** Called when a meta-tool changed the thread's `tools/list` (under `tools` only). */
  onListChanged: () => Promise<void>;
}

/**
 * Runs one `tools/call` for a session: a meta-tool through the core, or a loaded tool forwarded
 * to its upstream. It holds no state; the thread's loaded tools live in the engine's store.
 */
export class ToolCalls {
  readonly #host: ToolCallsHost;

  constructor(host: ToolCallsHost) {
    this.#host = host;
  }

  /** Answers one call; only the upstream's own JSON-RPC error is thrown. */
  async call(request: ToolCallRequest): Promise<CallToolResult> {
    const { threadId, name, args, expose } = request;
    const engine = this.#host.engine;
    // Taken in the same turn as the engine: the servers missing from the catalog it searches.
    const missing = this.#host.upstreams.unsearchable();
    const session = engine.createSession({ threadId, expose });
    if (name === CALL_TOOL_NAME && expose === 'proxy')
      return this.#callThroughProxy(session, args, request);
    const metaTool = session.metaTools.find((tool) => tool.name === name);
    if (metaTool) {
      if (name === 'search_tools') this.#host.upstreams.retryMissing();
      const before = expose === 'tools' ? await session.activeTools() : [];
      const output = (await metaTool.execute(args ?? {})) as Record<string, unknown>;
      if (name === 'search_tools') noteUnsearchable(output, missing);
      if (expose === 'tools') {
        // A new session only if the catalog changed meanwhile: the list is then the new engine's.
        const current = this.#host.engine;
        const now = current === session.engine ? session : current.createSession({ threadId });
        if (!sameIds(before, await now.activeTools())) await request.onListChanged();
      }
      return {
        content: [{ type: 'text', text: JSON.stringify(output) }],
        structuredContent: output,
        ...(output.success === false && { isError: true }),
      };
    }
    return this.#forward(session, name, args, request);
  }

  /**
   * Runs a loaded tool for the core's `call_tool` (the engine's `runTool`): the session has
   * checked that it is loaded, allowed and given arguments that match its schema.
   */
  runTool(run: ToolRun<GatewayTool>): Promise<CallToolResult> {
    return this.#host.upstreams.callTool(
      run.id,
      run.arguments,
      run.callOptions as UpstreamCallOptions | undefined,
    );
  }

  /** `call_tool` under proxy: the core checks the call, `runTool` forwards it. */
  async #callThroughProxy(
    session: ToolSearchSession<GatewayTool>,
    args: Record<string, unknown> | undefined,
    request: ToolCallRequest,
  ): Promise<CallToolResult> {
    if (isNestedDeeperThan(args?.arguments, MAX_ARGUMENT_DEPTH)) {
      return errorResult(
        `The arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep, which no tool takes; the call was not sent.`,
      );
    }
    const target = typeof args?.name === 'string' ? args.name : undefined;
    return this.#runChecked(session, args ?? {}, request.forward, (output) =>
      target !== undefined && this.#host.vanishedFrom(target) !== undefined
        ? this.#notLoadedMessage(target, 'proxy')
        : output.message,
    );
  }

  /**
   * A direct `tools/call` of an upstream tool: the same rule as `call_tool` (the core checks that
   * the tool may run, loads it under proxy when the filters allow, and checks the arguments
   * against its schema; `runTool` forwards it), so no path reaches an upstream unchecked. Under
   * `'tools'` only an active tool (listed to the session) runs.
   */
  async #forward(
    session: ToolSearchSession<GatewayTool>,
    name: string,
    args: Record<string, unknown> | undefined,
    options: { expose: ExposeMode; forward: ForwardOptions },
  ): Promise<CallToolResult> {
    if (isNestedDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
      return errorResult(
        `The arguments of "${echo(name)}" are nested more than ${MAX_ARGUMENT_DEPTH} levels deep, which no tool takes; the call was not sent.`,
      );
    }
    // A refusal for a tool that may not run reads as one the session has not loaded.
    return this.#runChecked(session, { name, arguments: args ?? {} }, options.forward, (output) =>
      output.errors === undefined ? this.#notLoadedMessage(name, options.expose) : output.message,
    );
  }

  /**
   * Runs a call through the core's check (`session.callTool`; `runTool` forwards it): the
   * upstream's result, an upstream failure as an error result, or the refusal with `messageOf`'s
   * words. Only the upstream's own JSON-RPC error is thrown.
   */
  async #runChecked(
    session: ToolSearchSession<GatewayTool>,
    call: unknown,
    forward: ForwardOptions,
    messageOf: (output: CallToolRefusal) => string,
  ): Promise<CallToolResult> {
    let outcome: CallToolOutcome;
    try {
      outcome = await session.callTool(call, forward);
      await forward.drained();
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof UpstreamError) return errorResult(error.message);
      throw error;
    }
    if (outcome.status === 'ran') return outcome.result as CallToolResult;
    const { output } = outcome;
    const message = messageOf(output);
    return {
      content: [{ type: 'text', text: message }],
      structuredContent: { ...output, message },
      isError: true,
    };
  }

  #notLoadedMessage(name: string, expose: ExposeMode): string {
    const shown = echo(name);
    const server = this.#host.vanishedFrom(name);
    if (server !== undefined) {
      return `Tool "${shown}" was unloaded: the MCP server "${server}" no longer offers it. Call search_tools to find another tool for the task.`;
    }
    // Under proxy any allowed tool runs by its call: one the call did not run is not found.
    if (expose === 'proxy')
      return `Tool "${shown}" was not found. Call search_tools with what you want to do, then call_tool with the exact name it returns.`;
    const how = this.#host.toolSearch.autoLoad
      ? 'Call search_tools with what you want to do (the tools it finds are loaded)'
      : 'Call search_tools with what you want to do, then load_tool with the exact name it returns';
    return `Tool "${shown}" is not loaded. ${how}, then call the tool.`;
  }
}

/** Characters of a failed server's cause a search answer quotes: 70 broken servers stay readable. */
const MAX_CAUSE = 400;

/**
 * While some servers are still starting (or failed without a cached list), a search answers
 * from the others and names them, so the model knows the catalog is not whole yet.
 */
function noteUnsearchable(
  output: Record<string, unknown>,
  missing: readonly UnsearchableServer[],
): void {
  if (missing.length === 0) return;
  const starting = missing
    .filter((entry) => entry.reason === 'starting')
    .map(({ server }) => server);
  // Each with the cause it printed (its error, exit code, stderr's end), so the model can say why.
  const failed = missing
    .filter((entry) => entry.reason === 'failed')
    .map(({ server, error }) => {
      if (error === undefined) return server;
      const cause = error.length > MAX_CAUSE ? `${error.slice(0, MAX_CAUSE)}…` : error;
      return `${server} (${cause})`;
    });
  output.notSearchable = missing.map(({ server }) => server);
  const parts: string[] = [];
  if (starting.length > 0)
    parts.push(
      `still starting, so not searched yet: ${starting.join(', ')} (search again shortly to include them)`,
    );
  if (failed.length > 0) parts.push(`could not be started: ${failed.join('; ')}`);
  const note = `Servers ${parts.join('; ')}.`;
  output.message = typeof output.message === 'string' ? `${output.message} ${note}` : note;
}

/** Whether two lists name the same tools in the same order. */
function sameIds(
  left: readonly ActiveTool<GatewayTool>[],
  right: readonly ActiveTool<GatewayTool>[],
): boolean {
  return (
    left.length === right.length && left.every((tool, position) => tool.id === right[position]!.id)
  );
}
