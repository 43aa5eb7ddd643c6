import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  type NodeIncomingMessageLike,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { oneLine } from './gateway-text';
import { isLoopbackHost, passesHostAndOrigin, readBody } from './http-guards';
import type { ToolSearchGateway } from './tool-search-gateway';

export { isLoopbackHost } from './http-guards';

/** Options of {@link serveGatewayHttp}. */
export interface ServeGatewayHttpOptions {
  /** The port; `0` picks a free one. */
  port: number;
  /**
   * The address to listen on. Anything beyond loopback requires `token`.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * The MCP endpoint's path.
   * @default '/mcp'
   */
  path?: string;
  /**
   * A bearer token every request must carry (`Authorization: Bearer <token>`). Required when
   * `host` is not a loopback address.
   */
  token?: string | undefined;
  /**
   * Hostnames of browser origins allowed besides loopback ones (`Origin` is checked against DNS
   * rebinding, as the MCP spec requires; requests without `Origin`, like most MCP clients', pass).
   */
  allowedOrigins?: readonly string[];
  /**
   * Sessions (2025 revisions) kept at most; past it the least recently used one is closed (its
   * client gets `404 Session not found` and starts a new session, as the MCP spec prescribes).
   * A session is made only once its `initialize` request has arrived whole.
   * @default 1_000
   */
  maxSessions?: number;
}

/** A running HTTP gateway. */
export interface GatewayHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: URL;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /** Stops listening and closes every session (the gateway and its upstreams stay up). */
  close(): Promise<void>;
}

/** Each session holds a server and a thread of loaded tools: clients that never close theirs must not grow memory without bound. */
export const DEFAULT_MAX_HTTP_SESSIONS = 1_000;
/** The MCP SDK's own bound on a request body (4 MiB), applied before anything is parsed. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Serves a gateway over Streamable HTTP, one MCP session (and one thread of loaded tools) per
 * `Mcp-Session-Id`. Loopback by default; beyond loopback a bearer token is required.
 * @param gateway - the gateway
 * @param options - port, host, path, token, extra allowed origins
 * @throws {Error} when `host` is not loopback and no token is given
 * @example
 * const http = await serveGatewayHttp(gateway, { port: 3000 });
 * console.error(`listening on ${http.url}`);
 */
export async function serveGatewayHttp(
  gateway: ToolSearchGateway,
  options: ServeGatewayHttpOptions,
): Promise<GatewayHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const loopback = isLoopbackHost(host);
  if (!loopback && !options.token) {
    throw new Error(
      `Listening on ${host} (beyond loopback) needs a bearer token; set one or listen on 127.0.0.1`,
    );
  }
  const guards = { loopback, allowedOrigins: options.allowedOrigins ?? [] };
  const tokenDigest = options.token ? digest(options.token) : undefined;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_HTTP_SESSIONS;
  // In least-recently-used order: a request moves its session to the end.
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  // Revision 2026-07-28: one server per request, state in session handles (see createModernServer).
  const modern = createMcpHandler(() => gateway.createModernServer(), {
    legacy: 'reject',
    onerror: (error) => gateway.log(`HTTP (2026-07-28): ${oneLine(error)}`),
  });
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: MAX_BODY_BYTES });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      return answer(response, 404, `Not found: the MCP endpoint is ${path}`);
    }
    if (!passesHostAndOrigin(request, response, guards)) return;
    if (tokenDigest && !hasToken(request, tokenDigest)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      return answer(response, 401, 'Unauthorized: send Authorization: Bearer <token>');
    }
    let parsed: unknown;
    if (request.method === 'POST') {
      const body = await readBody(request, MAX_BODY_BYTES);
      if (body === 'aborted') return;
      if (body === 'too-large') {
        response.setHeader('Connection', 'close');
        return answer(response, 413, `Payload Too Large: the body is over ${MAX_BODY_BYTES} bytes`);
      }
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return answer(response, 400, 'Parse error: the body is not JSON', -32_700);
      }
      // The modern path answers its own protocol errors; every guard above applies to it too.
      // Classified from the parsed body; the modern path reads the bytes as they came (a
      // re-serialized body would cost a stack-deep JSON.stringify on hostile nesting).
      if (!(await isLegacyRequest(headersOnly(request), parsed)))
        return serveModern(replayed(request, body), response);
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (!transport) return answer(response, 404, 'Session not found', -32001);
      sessions.delete(sessionId);
      sessions.set(sessionId, transport);
      return transport.handleRequest(request, response, parsed);
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsed)) {
      // No server is made for a request that cannot open a session.
      return answer(response, 400, 'Bad Request: Mcp-Session-Id header is required');
    }
    const id = randomUUID();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, transport);
        for (const [oldest, stale] of sessions) {
          if (sessions.size <= maxSessions) break;
          sessions.delete(oldest);
          stale.close().catch(() => undefined);
        }
      },
    });
    transport.onclose = () => {
      sessions.delete(id);
    };
    // The session id is the gateway's own: when the session ends, its loads go with it.
    const { server } = await gateway.connect(transport, { threadId: id, forgetOnClose: true });
    await transport.handleRequest(request, response, parsed);
    // An initialize the transport refused: drop the unused session.
    if (!sessions.has(id)) await server.close().catch(() => undefined);
  };

  const httpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) answer(response, 500, `Internal error: ${String(error)}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: new URL(`http://${urlHost}:${address.port}${path}`),
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await modern.close().catch(() => undefined);
      await Promise.all(
        [...sessions.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** The request's method and headers as a web request, for classification (the body is passed parsed). */
function headersOnly(request: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.delete('content-length');
  return new Request(`http://localhost${request.url ?? '/'}`, {
    method: request.method ?? 'POST',
    headers,
  });
}

/** The request again, with the body already read from it. */
function replayed(request: IncomingMessage, body: Buffer): NodeIncomingMessageLike {
  return Object.assign(Readable.from([body]), {
    method: request.method ?? 'POST',
    url: request.url ?? '/',
    headers: request.headers,
  });
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function hasToken(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  // Compared as fixed-length digests in constant time, so the answer's timing tells nothing.
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

function answer(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
