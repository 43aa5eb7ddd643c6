import {
  type CallToolResult,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { type ToolSearchEngine, toolSearchInstructions } from 'tool-search-core';
import type { ToolSearchConfig } from '../config/gateway-config';
import type { GatewayTool } from '../upstream/upstream-manager';
import { forwardOptionsOf } from './forward-options';
import { echo, errorResult, oneLine } from './gateway-text';
import { toMcpDefinition } from './gateway-tool-definitions';
import { SessionHandles } from './session-handles';
import type { ToolCalls } from './tool-calls';

/** What a modern-era server reads from the gateway. */
export interface ModernServerHost {
  readonly serverInfo: { name: string; version: string };
  readonly toolSearch: ToolSearchConfig;
  readonly engine: ToolSearchEngine<GatewayTool>;
  readonly calls: ToolCalls;
  readonly handles: SessionHandles;
  /** Resolves once the first starts are over, or the bounded wait for them has passed. */
  waitForStart(): Promise<void>;
  log(message: string): void;
}

/** The argument that carries a session handle under protocol revision 2026-07-28 over HTTP. */
export const SESSION_ARGUMENT = 'session';

const SESSION_PROPERTY = {
  type: 'string',
  description:
    'The session handle a load_tool answer gave you; omit it on your first load_tool, which starts a session.',
} as const;

/** Meta-tools whose state lives in a session, and so take the handle. */
const STATEFUL = new Set(['load_tool', 'unload_tool', 'call_tool']);

/**
 * An MCP server for protocol revision 2026-07-28, which has no sessions: its tool list is the
 * same for every client (the meta-tools, `call_tool` and pinned tools, as under
 * `expose: 'proxy'`), and loaded tools are reached through `call_tool`.
 *
 * - `threadId` given (stdio: one client per connection): the connection is the thread.
 * - no `threadId` (HTTP: any request may come from anyone): `load_tool` starts a session and
 *   answers its handle; `load_tool`, `call_tool` and `unload_tool` take it back as `session`.
 */
export function createModernServer(host: ModernServerHost, threadId?: string): Server {
  const usesHandles = threadId === undefined;
  const { autoLoad = false, unloadTool = false } = host.toolSearch;
  const handleNote = usesHandles
    ? ' load_tool answers a "session" handle: pass it as "session" to call_tool, load_tool and unload_tool.'
    : '';
  const server = new Server(host.serverInfo, {
    capabilities: { tools: {} },
    instructions: `${toolSearchInstructions({ autoLoad, unloadTool, expose: 'proxy' })}${handleNote}`,
  });
  server.onerror = (error) => host.log(`2026-07-28 request: ${oneLine(error)}`);
  server.setRequestHandler('tools/list', async () => {
    await host.waitForStart();
    // Pins only: a session without a thread reads nothing from the store and writes nothing.
    const session = host.engine.createSession({ expose: 'proxy' });
    // Below the `enabled: "auto"` threshold: every tool a request may use, and no meta-tools.
    const offer = await session.offer();
    const tools: Tool[] = offer.metaTools
      .map(toMcpDefinition)
      .map((tool) =>
        usesHandles && (STATEFUL.has(tool.name) || (autoLoad && tool.name === 'search_tools'))
          ? withSessionArgument(tool)
          : tool,
      );
    for (const active of offer.tools) tools.push({ ...active.tool.definition, name: active.id });
    return { tools };
  });
  server.setRequestHandler('tools/call', async (request, context) => {
    await host.waitForStart();
    const { name } = request.params;
    if (!usesHandles) {
      return host.calls.call({
        threadId,
        name,
        args: request.params.arguments,
        expose: 'proxy',
        forward: forwardOptionsOf(context),
        onListChanged: async () => undefined,
      });
    }
    return callWithHandle(host, name, request.params.arguments, context);
  });
  return server;
}

async function callWithHandle(
  host: ModernServerHost,
  name: string,
  args: Record<string, unknown> | undefined,
  context: ServerContext,
): Promise<CallToolResult> {
  const { [SESSION_ARGUMENT]: given, ...rest } = args ?? {};
  const minting =
    name === 'load_tool' || (host.toolSearch.autoLoad === true && name === 'search_tools');
  let handle: string | undefined;
  if (given !== undefined) {
    if (typeof given !== 'string' || !host.handles.use(given)) {
      const shown = typeof given === 'string' ? `"${echo(given)}"` : 'given';
      return errorResult(
        `The session ${shown} is unknown or has expired. Call load_tool without "session" to start a new session, then load the tools again.`,
      );
    }
    handle = given;
  } else if (minting) {
    // Kept only once the call has loaded something: a load that fails makes no room among the
    // handles, so it cannot push another client's session out.
    handle = host.handles.draft();
  }
  // Without a handle a request has no thread: it sees pinned tools, and neither reads nor writes
  // the store, so anonymous requests leave nothing behind (and evict no one's loads).
  const threadId = handle === undefined ? undefined : SessionHandles.threadOf(handle);
  const drafted = given === undefined ? threadId : undefined;
  let result: CallToolResult;
  try {
    result = await host.calls.call({
      threadId,
      name,
      args: given === undefined && args === undefined ? undefined : rest,
      expose: 'proxy',
      forward: forwardOptionsOf(context),
      onListChanged: async () => undefined,
    });
  } catch (error) {
    if (drafted !== undefined) await host.engine.clearState(drafted).catch(() => undefined);
    throw error;
  }
  if (handle === undefined) {
    if (result.isError && STATEFUL.has(name) && name !== 'load_tool') {
      const first = result.content[0];
      if (first?.type === 'text')
        first.text += ` Pass the "${SESSION_ARGUMENT}" handle that load_tool answered.`;
    }
    return result;
  }
  const output = result.structuredContent as Record<string, unknown> | undefined;
  if (drafted !== undefined) {
    // Nothing was loaded, so nothing was written (a store writes no change that changes
    // nothing): no session starts, and the request leaves nothing behind.
    if (result.isError || (name === 'search_tools' && output?.activation === undefined))
      return result;
    host.handles.keep(handle);
  }
  if (output && name !== 'call_tool') {
    output[SESSION_ARGUMENT] = handle;
    result.content = [{ type: 'text', text: JSON.stringify(output) }];
  }
  return result;
}

/** A meta-tool definition that also takes the session handle. */
function withSessionArgument(tool: Tool): Tool {
  const schema = tool.inputSchema as { properties?: Record<string, unknown> };
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: { ...schema.properties, [SESSION_ARGUMENT]: SESSION_PROPERTY },
    } as Tool['inputSchema'],
  };
}
