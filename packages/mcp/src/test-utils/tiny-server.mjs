#!/usr/bin/env node
// The smallest MCP server over stdio, for tests that start many upstreams: plain JSON-RPC by
// hand, no SDK to load, so a start costs a Node process and little more.
//   --tools-json FILE   the tools it lists (a JSON array of tool definitions)
//   --starts FILE       appends this process id to FILE at start, to count starts
// tools/call answers "<name> ran" for a listed tool.
import { appendFileSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { 'tools-json': { type: 'string' }, starts: { type: 'string' } },
});
if (values.starts) appendFileSync(values.starts, `${process.pid}\n`);
const tools = values['tools-json'] ? JSON.parse(readFileSync(values['tools-json'], 'utf8')) : [];
const send = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined || typeof message.method !== 'string') return;
  const { id, method, params } = message;
  if (method === 'initialize') {
    send({
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'tiny', version: '1.0.0' },
      },
    });
  } else if (method === 'tools/list') {
    send({ id, result: { tools } });
  } else if (method === 'tools/call' && tools.some((tool) => tool.name === params?.name)) {
    send({ id, result: { content: [{ type: 'text', text: `${params.name} ran` }] } });
  } else if (method === 'ping') {
    send({ id, result: {} });
  } else {
    send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
