import { ToolIndex } from 'tool-search-core';
import { listUpstreamTools, loadGatewayConfig } from 'tool-search-mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InspectReport } from '../inspect/inspect-catalog';
import { NPM_SERVERS, runCli, temporaryDir } from '../test-utils/run-cli';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
beforeEach(async () => {
  temp = await temporaryDir();
});
afterEach(() => temp.dispose());

/** The tools of @modelcontextprotocol/server-memory 2026.8.31, in its own order. */
const MEMORY_TOOLS = [
  'create_entities',
  'create_relations',
  'add_observations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'read_graph',
  'search_nodes',
  'open_nodes',
];

/** `--mcp` for the memory server, started with node and a memory file in the test's folder. */
function memoryCommand(): string {
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(NPM_SERVERS.memory)}`;
}

describe('--mcp "COMMAND ARGS"', () => {
  it('lists a real MCP server over stdio and inspects its tools under their own names', async () => {
    const run = await runCli(['inspect', '--mcp', memoryCommand(), '--json'], {
      context: { env: { ...process.env, MEMORY_FILE_PATH: `${temp.dir}/memory.jsonl` } },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as InspectReport;
    expect(report.tools).toBe(MEMORY_TOOLS.length);
    expect(report.perTool.map((tool) => tool.id)).toEqual(MEMORY_TOOLS);
    expect(report.tokens.catalog).toBeGreaterThan(report.tokens.metaTools);
  });

  it('searches a live server as ToolIndex ranks its tools', async () => {
    const run = await runCli([
      'search',
      '--mcp',
      memoryCommand(),
      'add observations to an entity',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as { id: string }[];
    expect(hits[0]!.id).toBe('add_observations');
    expect(hits.every((hit) => MEMORY_TOOLS.includes(hit.id))).toBe(true);
  });

  it('evaluates labelled queries against a live server', async () => {
    const queries = await temp.write('queries.json', {
      queries: [
        { query: 'remove an entity from the knowledge graph', relevant: ['delete_entities'] },
        { query: 'read the whole graph', relevant: ['read_graph'] },
      ],
    });
    const run = await runCli(['eval', queries, '--mcp', memoryCommand(), '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ queries: 2, tools: MEMORY_TOOLS.length });
    expect(report.recallAt10).toBe(1);
  });

  it('exits 2 with one line naming the server when it does not start', async () => {
    const crash = `${JSON.stringify(process.execPath)} -e "console.error('missing API key'); process.exit(3)"`;
    const crashed = await runCli(['inspect', '--mcp', crash]);
    expect(crashed.code).toBe(2);
    expect(crashed.stdout).toBe('');
    expect(crashed.stderr).toBe(
      `tool-search: --mcp ${JSON.stringify(crash)}: did not start: it exited with code 3 while starting; its stderr ends: missing API key\n`,
    );
    // Node ends a crash with its version line: the last lines are shown, the error among them.
    const noScript = await runCli([
      'inspect',
      '--mcp',
      `${JSON.stringify(process.execPath)} ${temp.dir}/server.js`,
    ]);
    expect(noScript.code).toBe(2);
    expect(noScript.stderr).toMatch(
      /did not start: it exited with code 1 while starting; its stderr ends: .*Error: Cannot find module '.*server\.js'.* \| Node\.js v\d+\.\d+\.\d+\n$/,
    );
    const missing = await runCli(['search', '--mcp', 'no-such-mcp-server-xyz --stdio', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^tool-search: --mcp "no-such-mcp-server-xyz --stdio": did not start: .*ENOENT.*\n$/,
    );
    const silent = `${JSON.stringify(process.execPath)} -e "setInterval(() => {}, 1000)"`;
    const hung = await runCli(['inspect', '--mcp', silent, '--connect-timeout', '1000']);
    expect(hung.code).toBe(2);
    expect(hung.stderr).toContain('did not start: it did not start within 1000 ms');
  });
});

describe('--config FILE', () => {
  async function writeConfig(extra: Record<string, unknown> = {}) {
    return temp.write('gateway.json', {
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [NPM_SERVERS.memory],
          env: { MEMORY_FILE_PATH: `${temp.dir}/memory.jsonl` },
          denyTools: ['delete_*'],
        },
        everything: { command: process.execPath, args: [NPM_SERVERS.everything] },
      },
      ...extra,
    });
  }

  it('reads the servers through the gateway: exposed names, deny rules, the toolSearch defaults', async () => {
    const config = await writeConfig({ toolSearch: { topK: 2 } });
    const inspected = JSON.parse(
      (await runCli(['inspect', '--config', config, '--json'])).stdout,
    ) as InspectReport;
    const ids = inspected.perTool.map((tool) => tool.id);
    expect(ids).toContain('memory__create_entities');
    expect(ids).toContain('everything__echo');
    expect(ids.filter((id) => id.startsWith('memory__delete'))).toEqual([]);
    expect(ids.every((id) => /^(memory|everything)__/.test(id))).toBe(true);

    const run = await runCli(['search', '--config', config, 'echo back a message', '--json']);
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as { id: string }[];
    expect(hits).toHaveLength(2);
    expect(hits[0]!.id).toBe('everything__echo');
  });

  it('ranks as ToolIndex does over the exposed names', async () => {
    const config = await writeConfig();
    const query = 'open nodes by name';
    const hits = JSON.parse((await runCli(['search', '--config', config, query, '--json'])).stdout);
    // The same servers listed here by the gateway's code, and ranked by ToolIndex directly.
    const { config: parsed } = await loadGatewayConfig(config);
    const { tools } = await listUpstreamTools({ servers: parsed.mcpServers, log: () => undefined });
    const index = new ToolIndex(
      tools.map((tool) => ({
        id: tool.name,
        description: tool.definition.description ?? '',
        inputSchema: tool.definition.inputSchema,
      })),
    );
    expect(hits).toEqual(index.search(query));
    expect(hits[0].id).toBe('memory__open_nodes');
  });

  it('exits 2 naming the file and JSON path of a config the gateway refuses, and warns of unknown keys', async () => {
    const bad = await temp.write('bad.json', {
      mcpServers: { memory: { command: 'node', args: ['x', 2] } },
    });
    const run = await runCli(['inspect', '--config', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `tool-search: ${bad}: $.mcpServers.memory.args[1]: must be a string, got number 2\n`,
    );
    const missing = await runCli(['inspect', '--config', `${temp.dir}/none.json`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`tool-search: ${temp.dir}/none.json: $: cannot be read (ENOENT)\n`);

    const odd = await temp.write('odd.json', { mcpServers: {}, extra: true });
    const warned = await runCli(['inspect', '--config', odd, '--json']);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toBe(`tool-search: warning: ${odd}: $.extra: unknown key, ignored\n`);
    expect(JSON.parse(warned.stdout).tools).toBe(0);
  });

  it('exits 2 naming the server that does not start, even when the others do', async () => {
    const config = await temp.write('gateway.json', {
      mcpServers: {
        memory: { command: process.execPath, args: [NPM_SERVERS.memory] },
        broken: { command: process.execPath, args: ['-e', 'process.exit(1)'] },
      },
    });
    const run = await runCli(['search', '--config', config, 'graph']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `tool-search: ${config}: server "broken": did not start: it exited with code 1 while starting\n`,
    );
  });
});
