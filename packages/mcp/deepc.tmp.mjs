import { Client, specTypeSchemas } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
const client = new Client({ name: 't', version: '1' }, { capabilities: {} });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['deep.tmp.mjs', process.argv[2]], stderr: 'inherit' }));
const loose = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }).passthrough();
try { const r = await client.request({ method: 'tools/list', params: {} }, loose, {timeout: 5000}); console.log('ok', r.tools.length);
 for (const t of r.tools) { try { const v = specTypeSchemas.Tool['~standard'].validate(t); console.log(t.name, v.issues ? 'issues' : 'valid'); } catch (e) { console.log(t.name, 'throws', e.message); } }
} catch (e) { console.log('fail', e.constructor.name, e.message.slice(0, 300)); }
await client.close();
