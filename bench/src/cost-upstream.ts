/**
 * An MCP server over stdio that serves a data file's catalog, for the gateway rows of `bench:cost`:
 * `tools/list` is the file's tools, `tools/call` answers every catalog tool with the same small
 * JSON result the other rows' tools return. Started by the gateway as its upstream:
 * `node --import ./src/register-ts.ts src/cost-upstream.ts <data file>`.
 */
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { catalogToolResult } from './cost-recorder';
import { loadDataSet } from './data';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: cost-upstream.ts <data file>');
const catalog = loadDataSet(file).tools;
const tools = catalog.map((tool) => ({
  name: tool.id,
  description: tool.description,
  inputSchema: (tool.inputSchema ?? { type: 'object' }) as { type: 'object' },
}));
const names = new Set(tools.map((tool) => tool.name));

const server = new Server(
  { name: 'cost-catalog', version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', (request) => {
  const { name } = request.params;
  if (!names.has(name)) {
    return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
  }
  return { content: [{ type: 'text', text: JSON.stringify(catalogToolResult(name)) }] };
});
await server.connect(new StdioServerTransport());
