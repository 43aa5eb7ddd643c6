import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFICE_QUERIES, OFFICE_TOOLS } from './test-utils/catalogs';
import { CLI_BIN, NPM_SERVERS, runCli, TS_NODE_ARGS, temporaryDir } from './test-utils/run-cli';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
beforeEach(async () => {
  temp = await temporaryDir();
});
afterEach(() => temp.dispose());

/** Runs the bin in its own process; resolves with its exit code and output. */
function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TS_NODE_ARGS, CLI_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the tool-search bin', () => {
  // One or two processes per test: each start of the bin through tsx takes seconds on a busy machine.
  it('prints the JSON document on stdout and exits 0', async () => {
    const file = await temp.write('office.json', { tools: OFFICE_TOOLS });
    const search = await runBin(['search', file, 'weather in Paris', '--json']);
    expect(search.stderr).toBe('');
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout)[0].id).toBe('get_weather');
  });

  it('exits 1 for a usage error and 2 for bad input, with one line and no stack trace', async () => {
    const file = await temp.write('office.json', { tools: OFFICE_TOOLS });
    const usage = await runBin(['search', file]);
    expect(usage.code).toBe(1);
    expect(usage.stdout).toBe('');
    const missing = await runBin(['inspect', `${temp.dir}/missing.json`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`tool-search: ${temp.dir}/missing.json: no such file\n`);
  });

  it('exits 3 when a check fails, after printing the report', async () => {
    const file = await temp.write('office.json', { tools: OFFICE_TOOLS, queries: OFFICE_QUERIES });
    const check = await runBin(['eval', file, '--fail-under', '0.9']);
    expect(check.code).toBe(3);
    expect(check.stdout).toContain('recall@5');
    expect(check.stderr).toBe('tool-search: recall@5 0.750 is under --fail-under 0.9\n');
  });

  it('serves the MCP gateway over stdio, as tool-search-mcp does', async () => {
    const config = await temp.write('gateway.json', {
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [NPM_SERVERS.memory],
          env: { MEMORY_FILE_PATH: `${temp.dir}/memory.jsonl` },
        },
      },
      // The memory server's nine tools weigh less than the "auto" threshold: searching is asked for.
      toolSearch: { enabled: true },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...TS_NODE_ARGS, CLI_BIN, 'serve', '--config', config, '--no-cache'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.request({ method: 'tools/list', params: {} });
      expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'load_tool', 'call_tool']);
      const result = await client.request({
        method: 'tools/call',
        params: { name: 'search_tools', arguments: { query: 'create entities in the graph' } },
      });
      const { results } = result.structuredContent as { results: { name: string }[] };
      expect(results[0]!.name).toBe('memory__create_entities');
    } finally {
      await client.close();
    }
  });
});

describe('tool-search serve', () => {
  it("maps the gateway's exit codes to the command's: bad arguments 1, a bad config 2", async () => {
    const noConfig = await runCli(['serve']);
    expect(noConfig.code).toBe(1);
    expect(noConfig.stderr).toContain('--config FILE is required');
    const missing = await runCli(['serve', '--config', `${temp.dir}/none.json`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${temp.dir}/none.json: $: cannot be read (ENOENT)`);
    const help = await runCli(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--config FILE');
  });
});
