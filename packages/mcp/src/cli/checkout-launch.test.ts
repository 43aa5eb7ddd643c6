import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import {
  Client,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { callTool, listToolNames, temporaryDir } from '../test-utils/harness';
import { NPM_SERVERS, PACKAGE_ROOT } from '../test-utils/servers';

const REPOSITORY_ROOT = resolve(PACKAGE_ROOT, '../..');
/** The placeholders of the README's client entry: the clone and the user's config. */
const README_CLONE = '/home/me/tool-search';
const README_CONFIG = '/home/me/gateway.json';

/** The client entry the README's "Run it from a checkout" shows, as a client would read it. */
async function readmeEntry(): Promise<{ command: string; args: string[] }> {
  const readme = await readFile(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Run it from a checkout'));
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (json === undefined) throw new Error('no JSON block in "Run it from a checkout"');
  return (JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[] }> })
    .mcpServers['tool-search']!;
}

/**
 * An MCP client transport over a child's stdio that refuses what a strict client refuses: every
 * line on stdout must be a JSON-RPC message (the SDK's own transport skips other lines silently,
 * where other clients fail the server).
 */
class StrictStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly strayLines: string[] = [];
  readonly #child: ChildProcessWithoutNullStreams;

  constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
  }

  async start(): Promise<void> {
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      let message: JSONRPCMessage;
      try {
        message = parseJSONRPCMessage(JSON.parse(line));
      } catch {
        this.strayLines.push(line);
        return;
      }
      this.onmessage?.(message);
    });
    this.#child.once('close', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.#child.stdin.end();
  }
}

describe('the gateway from a checkout, as the README starts it', () => {
  it('speaks nothing but JSON-RPC on stdout, searches, loads and calls, and ends with its input', async () => {
    const temp = await temporaryDir();
    try {
      const memoryFile = join(temp.dir, 'memory.jsonl');
      const config = join(temp.dir, 'gateway.json');
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            memory: {
              command: process.execPath,
              args: [NPM_SERVERS.memory],
              env: { MEMORY_FILE_PATH: memoryFile },
            },
          },
          // Nine tools weigh less than the "auto" threshold: search them all the same.
          toolSearch: { enabled: true },
        }),
      );
      const entry = await readmeEntry();
      const args = entry.args.map((arg) =>
        arg.replace(README_CLONE, REPOSITORY_ROOT).replace(README_CONFIG, config),
      );
      expect(args).toContain('--silent');
      // A client's environment: no npm or pnpm script context from the test runner.
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|INIT_CWD$)/i.test(name)),
      );
      const child = spawn(entry.command, args, { cwd: temp.dir, env, stdio: 'pipe' });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((done) => child.once('exit', done));
      const transport = new StrictStdioTransport(child);
      const client = new Client({ name: 'checkout-test', version: '1.0.0' });
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('tool-search-mcp');
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'call_tool']);
      const search = await callTool(client, 'search_tools', { query: 'create entities' });
      expect((search.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe(
        'memory__create_entities',
      );
      await callTool(client, 'load_tool', { toolName: 'memory__create_entities' });
      const created = await callTool(client, 'call_tool', {
        name: 'memory__create_entities',
        arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote'] }] },
      });
      expect(created.isError).toBeFalsy();
      expect(await readFile(memoryFile, 'utf8')).toContain('"Ada"');
      await client.close();
      expect(await exited).toBe(0);
      expect(transport.strayLines).toEqual([]);
      expect(stderr).toContain('[tool-search-mcp] memory: connected, 9 tool(s)');
    } finally {
      await temp.remove();
    }
  });
});
