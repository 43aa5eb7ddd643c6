import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
let schema = { type: 'string' };
for (let i = 0; i < Number(process.argv[2]); i++) schema = { type: 'object', properties: { a: schema } };
const tools = [{ name: 'ok', description: 'fine', inputSchema: { type: 'object' } }, { name: 'deep', description: 'deep', inputSchema: { type: 'object', properties: { a: schema } } }];
const server = new Server({ name: 'd', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools }));
server.onerror = (e) => process.stderr.write('server error ' + e.message + '\n');
await server.connect(new StdioServerTransport());
