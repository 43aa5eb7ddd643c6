import { createServer } from 'node:http';
import { Server, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const factory = (ctx) => {
  console.log('factory', ctx.era);
  const server = new Server({ name: 'p', version: '1' }, { capabilities: { tools: { listChanged: true } }, instructions: 'hi' });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'x', inputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } }] }));
  server.setRequestHandler('tools/call', async (req, ctx2) => {
    console.log('call', req.params, ctx2.mcpReq._meta, ctx2.sessionId);
    await ctx2.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: ctx2.mcpReq._meta?.progressToken ?? 'none', progress: 1, total: 2 } });
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  return server;
};
const modern = createMcpHandler(factory, { legacy: 'reject' });
const node = toNodeHandler(modern);
const http = createServer(async (req, res) => {
  const web = await toWebRequest(req);
  const body = req.method === 'POST' ? await web.clone().json().catch(() => undefined) : undefined;
  console.log('req', req.method, JSON.stringify(body)?.slice(0, 200), 'legacy?', await isLegacyRequest(web, body));
  await node(req, res, body);
});
await new Promise((r) => http.listen(0, '127.0.0.1', r));
const url = new URL(`http://127.0.0.1:${http.address().port}/mcp`);
const client = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(url));
console.log('negotiated', client.getNegotiatedProtocolVersion?.(), client.getServerCapabilities(), client.getInstructions());
console.log(JSON.stringify(await client.request({ method: 'tools/list', params: {} })));
console.log(JSON.stringify(await client.request({ method: 'tools/call', params: { name: 'x', arguments: {} } }, { onprogress: (p) => console.log('progress', p) })));
await client.close();
const c2 = new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await c2.connect(new StreamableHTTPClientTransport(url));
console.log('auto negotiated', c2.getNegotiatedProtocolVersion?.());
await c2.close();
http.close();
