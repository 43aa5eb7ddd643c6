import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { ToolSearchGateway } from './tool-search-gateway';

/**
 * Serves a gateway over stdio: one client, one session. Only MCP messages go to stdout.
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
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  const { closed } = await gateway.connect(transport);
  return { closed };
}
