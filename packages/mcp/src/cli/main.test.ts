import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startEmbeddingsServer } from 'tool-search-testing/embeddings-server';
import { describe, expect, it } from 'vitest';
import { callTool, listToolNames, temporaryDir } from '../test-utils/harness';
import { GATEWAY_BIN, npmServer, PACKAGE_ROOT } from '../test-utils/servers';
import { main } from './main';

/** A writable that keeps what is written, and resolves `waitFor` when a pattern appears. */
function collector() {
  let text = '';
  const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      for (const waiter of [...waiters]) {
        const match = text.match(waiter.pattern);
        if (match) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(match);
        }
      }
      done();
    },
  });
  return {
    stream,
    text: () => text,
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const match = text.match(pattern);
        if (match) resolve(match);
        else waiters.push({ pattern, resolve });
      }),
  };
}

async function writeConfig(dir: string, config: unknown): Promise<string> {
  const file = join(dir, 'gateway.json');
  await writeFile(file, JSON.stringify(config));
  return file;
}

describe('tool-search-mcp (the bin over stdio)', () => {
  it('serves an MCP client over stdio, with logs on stderr only', async () => {
    const temp = await temporaryDir();
    const memoryFile = join(temp.dir, 'memory.jsonl');
    const config = await writeConfig(temp.dir, {
      mcpServers: { memory: npmServer('memory', [], { env: { MEMORY_FILE_PATH: memoryFile } }) },
      toolSearch: { enabled: true, expose: 'tools' },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        '--conditions=tool-search-source',
        GATEWAY_BIN,
        '--config',
        config,
        '--no-cache',
      ],
      cwd: PACKAGE_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const protocolErrors: Error[] = [];
    client.onerror = (error) => protocolErrors.push(error);
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('tool-search-mcp');
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool']);
      const search = await callTool(client, 'search_tools', {
        query: 'add observations to an entity',
      });
      expect((search.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe(
        'memory__add_observations',
      );
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler('notifications/tools/list_changed', () => resolve());
      });
      await callTool(client, 'load_tool', { toolName: 'memory__create_entities' });
      await changed;
      expect(await listToolNames(client)).toEqual([
        'search_tools',
        'load_tool',
        'memory__create_entities',
      ]);
      const created = await callTool(client, 'memory__create_entities', {
        entities: [{ name: 'Grace', entityType: 'person', observations: ['found a moth'] }],
      });
      expect(created.isError).toBeFalsy();
      expect(await readFile(memoryFile, 'utf8')).toContain('"Grace"');
      expect(stderr).toContain('[tool-search-mcp] memory: connected, 9 tool(s)');
      expect(protocolErrors).toEqual([]);
    } finally {
      await client.close();
      await temp.remove();
    }
  });
});

describe('main', () => {
  it('exits 2 on bad arguments and 1 on a bad config naming the file and JSON path', async () => {
    const temp = await temporaryDir();
    try {
      const noConfig = collector();
      expect(await main([], { stderr: noConfig.stream })).toBe(2);
      expect(noConfig.text()).toContain('--config FILE is required');
      const badExpose = collector();
      expect(
        await main(['--config', 'x.json', '--expose', 'list'], { stderr: badExpose.stream }),
      ).toBe(2);
      const config = await writeConfig(temp.dir, {
        mcpServers: { broken: { command: 'node', args: [1] } },
      });
      const badConfig = collector();
      expect(await main(['--config', config], { stderr: badConfig.stream })).toBe(1);
      expect(badConfig.text()).toContain(
        `${config}: $.mcpServers.broken.args[0]: must be a string`,
      );
      const open = await writeConfig(temp.dir, { mcpServers: {} });
      const beyond = collector();
      expect(
        await main(['--config', open, '--port', '0', '--host', '0.0.0.0'], {
          stderr: beyond.stream,
          env: {},
        }),
      ).toBe(1);
      expect(beyond.text()).toContain('needs a bearer token in $TOOL_SEARCH_MCP_TOKEN');
    } finally {
      await temp.remove();
    }
  });

  it('warns about unknown keys and stops cleanly when stdin closes', async () => {
    const temp = await temporaryDir();
    try {
      const config = await writeConfig(temp.dir, { mcpServers: {}, toolSearch: { topk: 3 } });
      const stderr = collector();
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const running = main(['--config', config, '--no-cache'], {
        stdin,
        stdout,
        stderr: stderr.stream,
      });
      await stderr.waitFor(/unknown key/);
      stdin.end();
      expect(await running).toBe(0);
      expect(stderr.text()).toContain(`${config}: $.toolSearch.topk: unknown key, ignored`);
    } finally {
      await temp.remove();
    }
  });

  it('serves Streamable HTTP with --port and stops on its signal', async () => {
    const temp = await temporaryDir();
    try {
      const config = await writeConfig(temp.dir, {
        mcpServers: {},
        toolSearch: { enabled: true, expose: 'proxy' },
      });
      const stderr = collector();
      const controller = new AbortController();
      const running = main(
        ['--config', config, '--port', '0', '--cache', join(temp.dir, 'cache')],
        {
          stderr: stderr.stream,
          signal: controller.signal,
        },
      );
      const [, url] = await stderr.waitFor(/listening on (\S+)/);
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'call_tool']);
      await client.close();
      controller.abort();
      expect(await running).toBe(0);
    } finally {
      await temp.remove();
    }
  });
});

describe('main with an embeddings endpoint', () => {
  it('refuses embeddings flags that do not fit together, and a key variable that is not set', async () => {
    const temp = await temporaryDir();
    try {
      const config = await writeConfig(temp.dir, { mcpServers: {} });
      const cases: [string[], string][] = [
        [
          ['--embeddings-url', 'http://127.0.0.1:1/v1'],
          '--embeddings-url needs --embeddings-model',
        ],
        [
          ['--embeddings-url', 'file:///x', '--embeddings-model', 'm'],
          'must be an http: or https: URL',
        ],
        [['--embeddings-model', 'm'], 'need --embeddings-url (or "embeddings" in the config)'],
        [['--no-embeddings', '--embeddings-model', 'm'], '--no-embeddings goes with no other'],
        [
          [
            '--embeddings-url',
            'http://127.0.0.1:1/v1',
            '--embeddings-model',
            'm',
            '--embeddings-key-env',
            'a-b',
          ],
          '--embeddings-key-env must name an environment variable',
        ],
      ];
      for (const [flags, message] of cases) {
        const stderr = collector();
        expect(await main(['--config', config, ...flags], { stderr: stderr.stream })).toBe(2);
        expect(stderr.text()).toContain(message);
      }
      const unset = collector();
      expect(
        await main(
          [
            '--config',
            config,
            '--embeddings-url',
            'http://127.0.0.1:1/v1',
            '--embeddings-model',
            'm',
            '--embeddings-key-env',
            'NO_SUCH_KEY',
          ],
          { stderr: unset.stream, env: {} },
        ),
      ).toBe(1);
      expect(unset.text()).toContain(
        `invalid config: ${config}: $.embeddings.apiKeyEnv: names the environment variable NO_SUCH_KEY, which is not set`,
      );
    } finally {
      await temp.remove();
    }
  });

  it('fuses with the endpoint the flags name, over Streamable HTTP', async () => {
    const temp = await temporaryDir();
    const endpoint = await startEmbeddingsServer();
    try {
      const config = await writeConfig(temp.dir, {
        mcpServers: {
          memory: npmServer('memory', [], {
            env: { MEMORY_FILE_PATH: join(temp.dir, 'memory.jsonl') },
          }),
        },
        // The flags name another endpoint: nothing of this one is used, its key least of all.
        embeddings: { url: 'http://127.0.0.1:1/v1', model: 'other', apiKey: 'config-key' },
      });
      const stderr = collector();
      const controller = new AbortController();
      const running = main(
        [
          '--config',
          config,
          '--port',
          '0',
          '--no-cache',
          '--embeddings-url',
          endpoint.url,
          '--embeddings-model',
          'concepts',
          '--embeddings-key-env',
          'MY_EMBEDDINGS_KEY',
        ],
        { stderr: stderr.stream, signal: controller.signal, env: { MY_EMBEDDINGS_KEY: 'k-2' } },
      );
      const [, url] = await stderr.waitFor(/listening on (\S+)/);
      await stderr.waitFor(/embeddings: 9 tool text\(s\) embedded with concepts/);
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url!)));
      const search = await callTool(client, 'search_tools', { query: 'forget Bob' });
      expect((search.structuredContent as { results: { name: string }[] }).results[0]?.name).toBe(
        'memory__delete_entities',
      );
      await client.close();
      controller.abort();
      expect(await running).toBe(0);
      expect(new Set(endpoint.requests.map((request) => request.authorization))).toEqual(
        new Set(['Bearer k-2']),
      );
    } finally {
      await endpoint.close();
      await temp.remove();
    }
  });
});
