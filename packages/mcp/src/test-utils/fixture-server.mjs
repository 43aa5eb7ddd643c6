#!/usr/bin/env node
// A small MCP server for the gateway's failure tests, configured by flags:
//   --mode normal|crash-on-start|hang-on-start|garbage|bad-list
//   --tools N              N generated tools (tool_0 ... tool_N-1) besides the fixed ones
//   --description-length L each generated tool's description is L characters long
//   --tools-file FILE      more tool names, one per line, read at start (the cache key ignores it)
//   --starts FILE          appends this process id to FILE at start, to count starts
//   --set-description      also offers set_description (gives the tool named "tool" the
//                          description "description" and sends tools/list_changed)
//   --add-name NAME        add_tool adds a tool of this name (instead of added_<n>)
//   --removable            also offers remove_tool (removes the tool named "tool", sends
//                          tools/list_changed)
//   --deep-schema N        also offers "deep", whose input schema nests N levels
//   --events FILE          slow appends "done <id>" or "cancelled <id>" here
//   --tools-json FILE      offers exactly the tools of this JSON array (no fixed tools)
//   --list-ttl MS          tools/list answers carry "ttlMs": MS (the 2026-07-28 cache hint)
//   --list-scope SCOPE     tools/list answers carry "cacheScope": SCOPE
//   --write-env FILE       writes its environment to FILE (JSON) at start
// Fixed tools: echo (returns its arguments), fail (isError), crash (exits), hang (never answers),
// add_tool (adds a tool and sends tools/list_changed), slow (reports progress every 50 ms for
// "steps" steps, then answers; stops early when cancelled).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'normal' },
    tools: { type: 'string', default: '0' },
    'description-length': { type: 'string', default: '0' },
    'tools-file': { type: 'string' },
    starts: { type: 'string' },
    'set-description': { type: 'boolean', default: false },
    'add-name': { type: 'string' },
    removable: { type: 'boolean', default: false },
    'deep-schema': { type: 'string' },
    events: { type: 'string' },
    'tools-json': { type: 'string' },
    'list-ttl': { type: 'string' },
    'list-scope': { type: 'string' },
    'write-env': { type: 'string' },
  },
});
if (values.starts) appendFileSync(values.starts, `${process.pid}\n`);
if (values['write-env']) writeFileSync(values['write-env'], JSON.stringify(process.env));
const keepAlive = () => setInterval(() => undefined, 60_000);

if (values.mode === 'crash-on-start') {
  process.stderr.write('fixture: crashing on start\n');
  process.exit(3);
} else if (values.mode === 'hang-on-start') {
  keepAlive();
} else if (values.mode === 'garbage') {
  process.stdout.write('this is not JSON-RPC\n{"half": \n');
  keepAlive();
} else if (values.mode === 'bad-list') {
  // Speaks JSON-RPC by hand so that it can answer tools/list with a result no schema accepts.
  const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const message = JSON.parse(line);
    if (message.method === 'initialize') {
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'bad-list', version: '1.0.0' },
        },
      });
    } else if (message.method === 'tools/list') {
      send({ jsonrpc: '2.0', id: message.id, result: { tools: 'not a list' } });
    } else if (message.id !== undefined) {
      send({ jsonrpc: '2.0', id: message.id, result: {} });
    }
  });
} else {
  const objectSchema = { type: 'object', properties: {}, additionalProperties: true };
  const tools = [
    {
      name: 'echo',
      description: 'Echo the arguments back as JSON text',
      inputSchema: objectSchema,
    },
    { name: 'fail', description: 'Always answer with an error result', inputSchema: objectSchema },
    { name: 'crash', description: 'Exit the server process at once', inputSchema: objectSchema },
    { name: 'hang', description: 'Never answer this call', inputSchema: objectSchema },
    { name: 'add_tool', description: 'Add a new tool and announce it', inputSchema: objectSchema },
    {
      name: 'slow',
      description: 'Report progress for a while, then answer',
      inputSchema: objectSchema,
    },
  ];
  if (values['tools-json'])
    tools.splice(0, tools.length, ...JSON.parse(readFileSync(values['tools-json'], 'utf8')));
  if (values.removable) {
    tools.push({
      name: 'remove_tool',
      description: 'Remove another tool of this server and announce the change',
      inputSchema: objectSchema,
    });
  }
  if (values['deep-schema']) {
    let schema = { type: 'string' };
    for (let level = 0; level < Number(values['deep-schema']); level++)
      schema = { type: 'object', properties: { next: schema } };
    tools.push({
      name: 'deep',
      description: 'A tool whose input schema nests very deep',
      inputSchema: { type: 'object', properties: { next: schema } },
    });
  }
  if (values['set-description']) {
    tools.push({
      name: 'set_description',
      description: 'Give another tool of this server a new description and announce the change',
      inputSchema: objectSchema,
    });
  }
  const length = Number(values['description-length']);
  for (let index = 0; index < Number(values.tools); index++) {
    const base = `Generated tool number ${index} that does task ${index} for the huge manifest test. `;
    tools.push({
      name: `tool_${index}`,
      description:
        length > 0 ? base.repeat(Math.ceil(length / base.length)).slice(0, length) : base,
      inputSchema: objectSchema,
    });
  }
  if (values['tools-file']) {
    for (const name of readFileSync(values['tools-file'], 'utf8').split('\n')) {
      if (name.trim())
        tools.push({
          name: name.trim(),
          description: `The ${name.trim()} tool`,
          inputSchema: objectSchema,
        });
    }
  }
  const server = new Server(
    { name: 'fixture', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const listHints = {
    ...(values['list-ttl'] !== undefined && { ttlMs: Number(values['list-ttl']) }),
    ...(values['list-scope'] !== undefined && { cacheScope: values['list-scope'] }),
  };
  server.setRequestHandler('tools/list', () => ({ tools, ...listHints }));
  server.setRequestHandler('tools/call', async (request, context) => {
    const { name, arguments: args = {} } = request.params;
    switch (name) {
      case 'echo':
        return { content: [{ type: 'text', text: JSON.stringify(args) }] };
      case 'fail':
        return { content: [{ type: 'text', text: 'upstream said no' }], isError: true };
      case 'crash':
        process.exit(1);
        break;
      case 'hang':
        return new Promise(() => undefined);
      case 'slow': {
        const token = context.mcpReq._meta?.progressToken;
        const steps = Number(args.steps ?? 20);
        const note = (line) => {
          if (values.events) appendFileSync(values.events, `${line} ${args.id ?? ''}\n`);
        };
        for (let step = 1; step <= steps; step++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          if (context.mcpReq.signal.aborted) {
            note('cancelled');
            return { content: [{ type: 'text', text: 'cancelled' }], isError: true };
          }
          if (token !== undefined)
            await context.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: steps },
            });
        }
        note('done');
        return { content: [{ type: 'text', text: `slow ran ${steps} steps` }] };
      }
      case 'remove_tool': {
        const index = tools.findIndex((tool) => tool.name === args.tool);
        if (index === -1) throw new Error(`unknown tool ${args.tool}`);
        tools.splice(index, 1);
        await server.sendToolListChanged();
        return { content: [{ type: 'text', text: `removed ${args.tool}` }] };
      }
      case 'add_tool': {
        const added = values['add-name'] ?? `added_${tools.length}`;
        tools.push({
          name: added,
          description: 'A tool added while running',
          inputSchema: objectSchema,
        });
        await server.sendToolListChanged();
        return { content: [{ type: 'text', text: added }] };
      }
      case 'set_description': {
        if (!values['set-description']) throw new Error('unknown tool set_description');
        const index = tools.findIndex((tool) => tool.name === args.tool);
        if (index === -1) throw new Error(`unknown tool ${args.tool}`);
        tools[index] = { ...tools[index], description: String(args.description) };
        await server.sendToolListChanged();
        return { content: [{ type: 'text', text: tools[index].description }] };
      }
      default:
        if (tools.some((tool) => tool.name === name))
          return { content: [{ type: 'text', text: `${name} ran` }] };
        throw new Error(`unknown tool ${name}`);
    }
  });
  await server.connect(new StdioServerTransport());
}
