import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import {
  type EmbeddingsServer,
  startEmbeddingsServer,
  unreachableEmbeddingsUrl,
} from 'tool-search-testing/embeddings-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfigError } from '../config/config-error';
import type { GatewayConfig } from '../config/gateway-config';
import { callTool, temporaryDir } from '../test-utils/harness';
import { fixture, npmServer } from '../test-utils/servers';
import { createGatewayFromConfig } from './create-gateway-from-config';
import { createEmbedFromConfig } from './embeddings-from-config';

interface SearchOutput {
  results: { name: string; score: number }[];
}

/** Log lines kept, with a wait for the first line that matches a pattern. */
function logRecorder() {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  return {
    lines,
    log: (line: string) => {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (!waiter.pattern.test(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    },
    waitFor: (pattern: RegExp) =>
      new Promise<string>((resolve) => {
        const line = lines.find((candidate) => pattern.test(candidate));
        if (line !== undefined) resolve(line);
        else waiters.push({ pattern, resolve });
      }),
  };
}

/** A gateway from a config, with an in-memory client session. */
async function startGateway(config: GatewayConfig, env: NodeJS.ProcessEnv = {}) {
  const logs = logRecorder();
  const gateway = createGatewayFromConfig(config, { cache: false, log: logs.log, env });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = new Client({ name: 'in-memory', version: '1.0.0' });
  await client.connect(clientSide);
  await gateway.ready();
  return {
    gateway,
    client,
    logs,
    search: async (query: string) =>
      (
        (await callTool(client, 'search_tools', { query }))
          .structuredContent as unknown as SearchOutput
      ).results.map((result) => result.name),
    close: async () => {
      await client.close();
      await gateway.close();
    },
  };
}

describe('the gateway with an embeddings endpoint', () => {
  let temp: Awaited<ReturnType<typeof temporaryDir>>;
  let endpoint: EmbeddingsServer;
  let memory: GatewayConfig['mcpServers'];

  beforeAll(async () => {
    temp = await temporaryDir();
    endpoint = await startEmbeddingsServer();
    memory = {
      memory: npmServer('memory', [], {
        env: { MEMORY_FILE_PATH: join(temp.dir, 'memory.jsonl') },
      }),
    };
  });

  afterAll(async () => {
    await endpoint.close();
    await temp.remove();
  });

  it('finds a paraphrase only with the endpoint, embedding each tool once and each query once', async () => {
    const plain = await startGateway({ mcpServers: memory });
    try {
      expect(await plain.search('forget Bob')).toEqual([]);
    } finally {
      await plain.close();
    }

    const fused = await startGateway(
      {
        mcpServers: memory,
        embeddings: { url: endpoint.url, model: 'concepts', apiKeyEnv: 'TEST_EMBEDDINGS_KEY' },
      },
      { TEST_EMBEDDINGS_KEY: 'secret-1' },
    );
    try {
      // Warmed in the background once the upstreams started.
      expect(await fused.logs.waitFor(/^embeddings: /)).toBe(
        'embeddings: 9 tool text(s) embedded with concepts; search_tools fuses',
      );
      expect((await fused.search('forget Bob'))[0]).toBe('memory__delete_entities');
      expect((await fused.search('delete entities'))[0]).toBe('memory__delete_entities');
      const texts = endpoint.texts();
      expect(texts).toHaveLength(9 + 2);
      expect(new Set(texts).size).toBe(texts.length);
      expect(texts.slice(-2)).toEqual(['forget Bob', 'delete entities']);
      expect(endpoint.requests.every((request) => request.model === 'concepts')).toBe(true);
      expect(endpoint.requests.map((request) => request.authorization)).toEqual(
        endpoint.requests.map(() => 'Bearer secret-1'),
      );
    } finally {
      await fused.close();
    }
  });

  it('answers by BM25F when the endpoint is down, and logs why', async () => {
    const gateway = await startGateway({
      mcpServers: memory,
      embeddings: { url: await unreachableEmbeddingsUrl(), model: 'concepts' },
    });
    try {
      const warm = await gateway.logs.waitFor(/^embeddings: /);
      expect(warm).toMatch(
        /^embeddings: the catalog could not be embedded \(EmbeddingError: The embedder failed: fetch failed: .*(ECONNREFUSED|connect)/,
      );
      expect(warm).toMatch(/search_tools answers by BM25F alone until the endpoint answers$/);
      expect((await gateway.search('delete entities'))[0]).toBe('memory__delete_entities');
      expect(await gateway.search('forget Bob')).toEqual([]);
      expect(
        gateway.logs.lines.some((line) =>
          /^embed\.query failed: EmbeddingError: The embedder failed: fetch failed/.test(line),
        ),
      ).toBe(true);
    } finally {
      await gateway.close();
    }
  });

  it('embeds only the new tool text when an upstream’s tools change', async () => {
    const server = await startEmbeddingsServer();
    const gateway = await startGateway({
      mcpServers: { fixture: fixture() },
      embeddings: { url: server.url, model: 'concepts' },
    });
    try {
      await gateway.logs.waitFor(/^embeddings: 6 tool text\(s\) embedded/);
      await callTool(gateway.client, 'load_tool', { toolName: 'fixture__add_tool' });
      await callTool(gateway.client, 'fixture__add_tool', {});
      await gateway.logs.waitFor(/^embeddings: 1 tool text\(s\) embedded/);
      const texts = server.texts();
      expect(texts).toHaveLength(7);
      expect(texts.at(-1)).toMatch(/^fixture added 6: A tool added while running/);
    } finally {
      await gateway.close();
      await server.close();
    }
  });
});

describe('createEmbedFromConfig', () => {
  it('refuses an apiKeyEnv that names an unset variable, naming the file and path', () => {
    const config = { url: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: 'NO_SUCH_KEY' };
    let error: unknown;
    try {
      createEmbedFromConfig(config, { env: {}, file: 'gateway.json' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayConfigError);
    expect((error as GatewayConfigError).message).toBe(
      'gateway.json: $.embeddings.apiKeyEnv: names the environment variable NO_SUCH_KEY, which is not set: set it to the API key, or remove "apiKeyEnv" for an endpoint without one',
    );
    expect(() =>
      createGatewayFromConfig({ mcpServers: {}, embeddings: config }, { cache: false, env: {} }),
    ).toThrow(GatewayConfigError);
  });

  it('names the vectors after the model and its dimension, and logs no credentials', () => {
    const configured = createEmbedFromConfig(
      { url: 'https://user:pass@example.com/v1', model: 'text-embedding-3-small', dimensions: 512 },
      { env: {} },
    );
    expect(configured.fusion).toEqual({ model: 'text-embedding-3-small@512' });
    expect(configured.label).toBe('text-embedding-3-small at https://example.com/v1');
  });
});
