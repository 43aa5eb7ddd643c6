import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server, type Tool } from '@modelcontextprotocol/server';

/** How the upstream answers now. */
export type UpstreamMode =
  /** runs the tool and answers its name and arguments */
  | 'ok'
  /** runs the tool and answers a result with `isError` */
  | 'error-result'
  /** runs the tool and answers a JSON-RPC error */
  | 'protocol-error'
  /** answers every HTTP request with 503, as a server that is down behind a proxy */
  | 'down';

/** One execution of a tool on the upstream. */
export interface Execution {
  tool: string;
  arguments: Record<string, unknown>;
}

/** An MCP server over Streamable HTTP (stateless) that counts what it runs. */
export interface CountingUpstream {
  url: URL;
  /** Every execution since the last `reset()`, in order. */
  readonly executions: Execution[];
  /** `tools/list` requests answered (a gateway lists the tools each time it connects). */
  readonly listings: number;
  mode: UpstreamMode;
  /** The tools it offers (its own names). */
  readonly tools: readonly Tool[];
  /** Clears the executions and sets the mode back to `ok`. */
  reset(): void;
  close(): Promise<void>;
}

const OBJECT_SCHEMA = { type: 'object', properties: {}, additionalProperties: true } as const;

/**
 * Starts an in-process upstream on a free loopback port. Stateless, so that a gateway may connect,
 * fail and reconnect at any time without session bookkeeping here.
 * @param names - the tools' own names (descriptions are made from them)
 */
export async function startCountingUpstream(names: readonly string[]): Promise<CountingUpstream> {
  const tools: Tool[] = names.map((name) => ({
    name,
    description: `Run the ${name} operation on the test upstream`,
    inputSchema: OBJECT_SCHEMA,
  }));
  const executions: Execution[] = [];
  const state = { mode: 'ok' as UpstreamMode, listings: 0 };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (state.mode === 'down') {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('down for the test');
      return;
    }
    const server = new Server(
      { name: 'counting-upstream', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler('tools/list', () => {
      state.listings++;
      return { tools };
    });
    server.setRequestHandler('tools/call', (call) => {
      const { name, arguments: args = {} } = call.params;
      if (!tools.some((tool) => tool.name === name)) throw new Error(`no tool named ${name}`);
      executions.push({ tool: name, arguments: args });
      const text = JSON.stringify({ ran: name, arguments: args });
      if (state.mode === 'protocol-error') throw new Error(`${name} failed on the upstream`);
      return {
        content: [{ type: 'text' as const, text }],
        ...(state.mode === 'error-result' && { isError: true }),
      };
    });
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    response.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await transport.handleRequest(request, response);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    executions,
    get listings() {
      return state.listings;
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: UpstreamMode) {
      state.mode = mode;
    },
    tools,
    reset() {
      executions.length = 0;
      state.mode = 'ok';
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
