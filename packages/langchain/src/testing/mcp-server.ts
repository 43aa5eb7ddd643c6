import { loadMcpTools } from '@langchain/mcp-adapters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * A tiny MCP server with three tools. `tide_times` mentions "marina" only in its `port` parameter
 * description, so finding it by that word proves the parameter descriptions were indexed.
 * @param log - receives the name of every tool the server runs
 */
export function createMcpServer(log: string[]) {
  const server = new McpServer({ name: 'harbour', version: '1.0.0' });
  server.registerTool(
    'tide_times',
    {
      description: 'Get high and low tide times for a coastal location',
      inputSchema: {
        port: z.string().describe('Harbour or marina where the tide is measured'),
        date: z.string().describe('Day in ISO format (YYYY-MM-DD)'),
      },
    },
    async ({ port, date }) => {
      log.push('tide_times');
      return { content: [{ type: 'text', text: `High tide in ${port} on ${date} at 06:12` }] };
    },
  );
  server.registerTool(
    'convert_currency',
    {
      description: 'Convert an amount of money between two currencies',
      inputSchema: {
        amount: z.number().describe('Amount to convert'),
        from: z.string().describe('ISO 4217 code of the source currency'),
        to: z.string().describe('ISO 4217 code of the target currency'),
      },
    },
    async ({ amount, from, to }) => {
      log.push('convert_currency');
      return { content: [{ type: 'text', text: `${amount} ${from} = ${amount * 2} ${to}` }] };
    },
  );
  server.registerTool(
    'geocode_address',
    {
      description: 'Turn a postal address into latitude and longitude',
      inputSchema: { address: z.string().describe('Street, number and town') },
    },
    async () => {
      log.push('geocode_address');
      return { content: [{ type: 'text', text: '38.72,-9.14' }] };
    },
  );
  return server;
}

/**
 * Starts {@link createMcpServer} in this process, connects an SDK `Client` to it over an
 * in-memory transport pair (no network, no child process), and loads its tools through
 * `@langchain/mcp-adapters`. Call `close` when done.
 */
export async function connectMcpTools(log: string[]) {
  const server = createMcpServer(log);
  const client = new Client({ name: 'tool-search-test', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  const tools = await loadMcpTools('harbour', client);
  return {
    tools,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
