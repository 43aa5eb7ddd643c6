import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { oneLine } from './gateway-text';
import { guardJsonRpcLines } from './json-rpc-line-guard';
import type { ToolSearchGateway } from './tool-search-gateway';

/** The MCP SDK's own limit for one stdio message (10 MiB), kept as the transport applies it. */
const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Serves a gateway over stdio: one client, one session. The client's first message picks the
 * protocol revision: an `initialize` handshake (2025 revisions) or `server/discover` and
 * per-request messages (2026-07-28). Only MCP messages go to stdout; a line that is not JSON-RPC
 * is answered with JSON-RPC's parse or invalid-request error.
 * @param gateway - the gateway
 * @param streams - stdin and stdout to use instead of the process's
 * @returns a promise that resolves when the client closes the connection
 * @example
 * await serveGatewayStdio(gateway);
 */
export async function serveGatewayStdio(
  gateway: ToolSearchGateway,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): Promise<{ closed: Promise<void> }> {
  const stdout = streams.stdout ?? process.stdout;
  const log = (message: string) => gateway.log(`stdio: ${message}`);
  let wire: ObservedTransport | undefined;
  const stdin = guardJsonRpcLines(streams.stdin ?? process.stdin, {
    answer: (message) => {
      wire?.send(message).catch(() => undefined);
    },
    log,
    maxLineBytes: MAX_STDIO_MESSAGE_BYTES,
  });
  wire = new ObservedTransport(new StdioServerTransport(stdin, stdout));
  serveStdio(
    ({ era }) =>
      era === 'modern'
        ? gateway.createModernServer({ threadId: randomUUID() })
        : gateway.createServer(),
    { transport: wire, onerror: (error) => log(oneLine(error)) },
  );
  return { closed: wire.closed };
}

/** A transport that also says when it has closed (the SDK's stdio entry owns its callbacks). */
class ObservedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  /** Resolves when the connection has closed. */
  readonly closed: Promise<void>;
  readonly #inner: Transport;
  #resolveClosed!: () => void;

  constructor(inner: Transport) {
    this.#inner = inner;
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => {
      this.onclose?.();
      this.#resolveClosed();
    };
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
