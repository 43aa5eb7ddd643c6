import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { GatewayConfigError } from './config-error';
import { loadGatewayConfig, parseGatewayConfig } from './parse-gateway-config';

function problemOf(value: unknown): GatewayConfigError {
  try {
    parseGatewayConfig(value, { file: 'gateway.json' });
  } catch (error) {
    if (error instanceof GatewayConfigError) return error;
    throw error;
  }
  throw new Error('expected a GatewayConfigError');
}

describe('parseGatewayConfig', () => {
  it('reads stdio and HTTP entries and the toolSearch options', () => {
    const { config, warnings } = parseGatewayConfig(
      {
        mcpServers: {
          memory: { command: 'npx', args: ['-y', 'server-memory'], env: { A: '1' }, cwd: 'sub' },
          remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
          files: {
            command: 'node',
            denyTools: ['write_*'],
            allowTools: ['*'],
            connectTimeout: 30000,
          },
        },
        toolSearch: {
          topK: 3,
          minScore: 0.5,
          autoLoad: false,
          alwaysLoaded: ['memory__read_graph'],
          maxLoadedTools: 10,
          unloadTool: true,
          expose: 'proxy',
        },
      },
      { file: 'gateway.json', baseDir: '/configs' },
    );
    expect(warnings).toEqual([]);
    expect(config.mcpServers.memory).toEqual({
      command: 'npx',
      args: ['-y', 'server-memory'],
      env: { A: '1' },
      cwd: '/configs/sub',
    });
    expect(config.mcpServers.remote).toEqual({
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer x' },
    });
    expect(config.mcpServers.files).toEqual({
      command: 'node',
      denyTools: ['write_*'],
      allowTools: ['*'],
      connectTimeout: 30000,
    });
    expect(config.toolSearch).toEqual({
      topK: 3,
      minScore: 0.5,
      autoLoad: false,
      alwaysLoaded: ['memory__read_graph'],
      maxLoadedTools: 10,
      unloadTool: true,
      expose: 'proxy',
    });
  });

  it.each([
    [{}, '$', 'mcpServers'],
    [[], '$', 'must be an object'],
    [{ mcpServers: [] }, '$.mcpServers', 'must be an object'],
    [{ mcpServers: { a: { args: [] } } }, '$.mcpServers.a', '"command"'],
    [{ mcpServers: { a: { command: 'x', url: 'http://h' } } }, '$.mcpServers.a', 'either'],
    [{ mcpServers: { a: { command: 'x', args: ['ok', 2] } } }, '$.mcpServers.a.args[1]', 'string'],
    [{ mcpServers: { a: { command: '' } } }, '$.mcpServers.a.command', 'non-empty'],
    [{ mcpServers: { a: { command: 'x', env: { K: 1 } } } }, '$.mcpServers.a.env.K', 'string'],
    [
      { mcpServers: { 'my server': { url: 'nope' } } },
      '$.mcpServers["my server"].url',
      'not a URL',
    ],
    [{ mcpServers: { a: { url: 'ftp://h/x' } } }, '$.mcpServers.a.url', 'http'],
    [{ mcpServers: { a: { command: 'x', denyTools: 'w*' } } }, '$.mcpServers.a.denyTools', 'array'],
    [{ mcpServers: {}, toolSearch: { topK: 0 } }, '$.toolSearch.topK', 'integer >= 1'],
    [
      { mcpServers: { a: { url: 'http://h/mcp', connectTimeout: -1 } } },
      '$.mcpServers.a.connectTimeout',
      'integer',
    ],
    [{ mcpServers: {}, toolSearch: { expose: 'list' } }, '$.toolSearch.expose', '"proxy"'],
    [{ mcpServers: {}, toolSearch: { autoLoad: 'yes' } }, '$.toolSearch.autoLoad', 'true or false'],
    [{ mcpServers: { '': { command: 'x' } } }, '$.mcpServers[""]', 'empty'],
  ])('rejects %j at the JSON path %s', (value, path, words) => {
    const error = problemOf(value);
    expect(error.file).toBe('gateway.json');
    expect(error.path).toBe(path);
    expect(error.message.startsWith(`gateway.json: ${path}: `)).toBe(true);
    expect(error.message).toContain(words);
  });

  it('warns about unknown keys with their path, and accepts keys MCP clients write', () => {
    const { config, warnings } = parseGatewayConfig(
      {
        mcpServers: {
          a: { command: 'x', autoApprove: [], timeout: 5, colour: 'red' },
          off: { command: 'y', disabled: true },
        },
        toolSearch: { topk: 3 },
        extra: 1,
      },
      { file: 'c.json' },
    );
    expect(warnings).toEqual([
      'c.json: $.extra: unknown key, ignored',
      'c.json: $.mcpServers.a.colour: unknown key, ignored',
      'c.json: $.toolSearch.topk: unknown key, ignored',
    ]);
    expect(Object.keys(config.mcpServers)).toEqual(['a']);
  });

  it('keeps a server named __proto__ as a server', () => {
    const { config } = parseGatewayConfig(
      JSON.parse('{"mcpServers":{"__proto__":{"command":"x"}}}'),
    );
    expect(Object.keys(config.mcpServers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(config.mcpServers)).toBe(Object.prototype);
  });
});

describe('loadGatewayConfig', () => {
  it('names the file for a missing file and for JSON that does not parse', async () => {
    const temp = await temporaryDir();
    try {
      const missing = join(temp.dir, 'missing.json');
      await expect(loadGatewayConfig(missing)).rejects.toThrow(
        `${missing}: $: cannot be read (ENOENT)`,
      );
      const broken = join(temp.dir, 'broken.json');
      await writeFile(broken, '{ "mcpServers": ');
      await expect(loadGatewayConfig(broken)).rejects.toThrow(`${broken}: $: is not valid JSON`);
    } finally {
      await temp.remove();
    }
  });

  it("resolves a relative cwd against the file's folder", async () => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'gateway.json');
      await writeFile(file, JSON.stringify({ mcpServers: { a: { command: 'x', cwd: 'work' } } }));
      const { config } = await loadGatewayConfig(file);
      expect(config.mcpServers.a).toEqual({ command: 'x', cwd: join(temp.dir, 'work') });
    } finally {
      await temp.remove();
    }
  });
});

describe('parseGatewayConfig: embeddings', () => {
  const servers = { mcpServers: {} };

  it('reads an embeddings endpoint, keeping the key variable’s name, not a key', () => {
    const { config, warnings } = parseGatewayConfig(
      {
        ...servers,
        embeddings: {
          url: 'https://api.openai.com/v1',
          model: 'text-embedding-3-small',
          apiKeyEnv: 'OPENAI_API_KEY',
          headers: { 'OpenAI-Organization': 'org-1' },
          dimensions: 512,
          batchSize: 64,
          timeout: 2000,
          weights: [1, 2],
        },
      },
      { file: 'gateway.json' },
    );
    expect(config.embeddings).toEqual({
      url: 'https://api.openai.com/v1',
      model: 'text-embedding-3-small',
      apiKeyEnv: 'OPENAI_API_KEY',
      headers: { 'OpenAI-Organization': 'org-1' },
      dimensions: 512,
      batchSize: 64,
      timeout: 2000,
    });
    expect(warnings).toEqual(['gateway.json: $.embeddings.weights: unknown key, ignored']);
  });

  it('names the JSON path of each problem', () => {
    const cases: [unknown, string][] = [
      ['http://x/v1', '$.embeddings: must be an object, got the string "http://x/v1"'],
      [{ model: 'm' }, '$.embeddings.url: must be a non-empty string, got nothing'],
      [{ url: 'ftp://x/v1', model: 'm' }, '$.embeddings.url: must be an http: or https: URL'],
      [{ url: 'not a url', model: 'm' }, '$.embeddings.url: is not a URL: "not a url"'],
      [{ url: 'http://x/v1', model: '' }, '$.embeddings.model: must be a non-empty string'],
      [
        { url: 'http://x/v1', model: 'm', apiKey: 'k', apiKeyEnv: 'K' },
        '$.embeddings: give either "apiKeyEnv" (the environment variable holding the key) or "apiKey", not both',
      ],
      [
        { url: 'http://x/v1', model: 'm', apiKeyEnv: 'sk-live-123' },
        '$.embeddings.apiKeyEnv: must be the name of an environment variable (letters, digits, _)',
      ],
      [
        { url: 'http://x/v1', model: 'm', headers: { 'x-team': 1 } },
        '$.embeddings.headers["x-team"]: must be a string, got number 1',
      ],
      [
        { url: 'http://x/v1', model: 'm', dimensions: 0 },
        '$.embeddings.dimensions: must be an integer >= 1',
      ],
      [
        { url: 'http://x/v1', model: 'm', batchSize: 1.5 },
        '$.embeddings.batchSize: must be an integer >= 1',
      ],
      [
        { url: 'http://x/v1', model: 'm', timeout: 2 ** 40 },
        '$.embeddings.timeout: must be at most',
      ],
    ];
    for (const [embeddings, message] of cases) {
      expect(problemOf({ ...servers, embeddings }).message).toContain(`gateway.json: ${message}`);
    }
  });
});
