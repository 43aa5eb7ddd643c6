/**
 * `tools/list` tokens of the npm reference MCP servers, sent directly versus through the gateway:
 * each server's tool definitions as JSON, encoded with o200k_base (`gpt-tokenizer`, the tokenizer
 * of GPT-4o and later). The JSON of the definitions is what a client turns into the model's tool
 * list; each provider wraps it a little differently, so read the figures as a fair proxy.
 *
 * Usage: `pnpm bench:gateway:tokens` (part of `pnpm bench:gateway`).
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { encode } from 'gpt-tokenizer';
import { count, markdownTable } from './format';
import {
  connectStdio,
  GATEWAY_BIN,
  NPM_SERVERS,
  requireBuiltGateway,
  temporaryDir,
} from './gateway-shared';

/** Tokens of a `tools/list` answer's tools, as JSON. */
async function listTokens(
  client: Client,
): Promise<{ tools: number; tokens: number; names: string[] }> {
  const { tools } = await client.request({ method: 'tools/list', params: {} });
  return {
    tools: tools.length,
    tokens: encode(JSON.stringify(tools)).length,
    names: tools.map((tool) => tool.name),
  };
}

async function main(): Promise<void> {
  requireBuiltGateway();
  const dir = await temporaryDir();
  const servers = {
    everything: { command: process.execPath, args: [NPM_SERVERS.everything] },
    filesystem: { command: process.execPath, args: [NPM_SERVERS.filesystem, dir] },
    memory: {
      command: process.execPath,
      args: [NPM_SERVERS.memory],
      env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
    },
  };
  const rows: string[][] = [];
  let directTotal = 0;
  let toolTotal = 0;
  for (const [name, server] of Object.entries(servers)) {
    const { client } = await connectStdio(
      server.command,
      server.args,
      'env' in server ? server.env : undefined,
    );
    const direct = await listTokens(client);
    await client.close();
    directTotal += direct.tokens;
    toolTotal += direct.tools;
    const config = path.join(dir, `${name}.json`);
    await writeFile(config, JSON.stringify({ mcpServers: { [name]: server } }));
    const { client: gateway } = await connectStdio(process.execPath, [
      GATEWAY_BIN,
      '--config',
      config,
      '--no-cache',
    ]);
    const through = await listTokens(gateway);
    await gateway.close();
    rows.push([
      name,
      count(direct.tools),
      count(direct.tokens),
      count(through.tokens),
      `${((1 - through.tokens / direct.tokens) * 100).toFixed(0)}%`,
    ]);
  }
  const all = path.join(dir, 'all.json');
  await writeFile(all, JSON.stringify({ mcpServers: servers }));
  const { client: gateway } = await connectStdio(process.execPath, [
    GATEWAY_BIN,
    '--config',
    all,
    '--no-cache',
  ]);
  const idle = await listTokens(gateway);
  rows.push([
    'all three',
    count(toolTotal),
    count(directTotal),
    count(idle.tokens),
    `${((1 - idle.tokens / directTotal) * 100).toFixed(0)}%`,
  ]);
  // What a working session pays: one search answer, and the list with three tools loaded.
  const search = await gateway.request({
    method: 'tools/call',
    params: { name: 'search_tools', arguments: { query: 'read a file' } },
  });
  const searchTokens = encode(JSON.stringify(search.content)).length;
  await gateway.request({
    method: 'tools/call',
    params: {
      name: 'load_tool',
      arguments: {
        toolNames: ['filesystem__read_text_file', 'memory__create_entities', 'everything__echo'],
      },
    },
  });
  const loaded = await listTokens(gateway);
  await gateway.close();
  await rm(dir, { recursive: true, force: true });

  console.log(
    `## tools/list tokens, direct vs through tool-search-mcp (o200k_base, node ${process.version})\n`,
  );
  console.log(markdownTable(['server', 'tools', 'direct', 'through the gateway', 'saved'], rows));
  console.log(
    `\nThrough the gateway, \`tools/list\` holds ${idle.names.join(', ')} until tools are loaded. ` +
      `With three tools loaded (${loaded.names.slice(2).join(', ')}) it is ${count(loaded.tokens)} tokens; ` +
      `one search_tools answer (5 results) is ${count(searchTokens)} tokens.`,
  );
}

await main();
