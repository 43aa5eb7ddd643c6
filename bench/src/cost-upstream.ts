/**
 * An MCP server over stdio that serves a data file's catalog, for the gateway rows of `bench:cost`:
 * `tools/list` is the file's tools; `tools/call` answers a catalog tool with the text the row wrote
 * to the result file for this call (`{ text }`: the conversation's real tool output), or, without
 * a text (minimal content), the small JSON result the other rows' tools return. Started by the
 * gateway as its upstream: `node --import ./src/register-ts.ts src/cost-upstream.ts <data file>
 * <result file>`.
 */
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { catalogToolResult } from './cost-recorder';
import { loadDataSet } from './data';

const [file, resultFile] = process.argv.slice(2);
if (file === undefined || resultFile === undefined) {
  throw new Error('usage: cost-upstream.ts <data file> <result file>');
}
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
  const { text } = JSON.parse(readFileSync(resultFile, 'utf8')) as { text?: string };
  return { content: [{ type: 'text', text: text ?? JSON.stringify(catalogToolResult(name)) }] };
});
await server.connect(new StdioServerTransport());
