import {
  type EmbeddingsServer,
  startEmbeddingsServer,
  unreachableEmbeddingsUrl,
} from 'tool-search-testing/embeddings-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OFFICE_TOOLS } from '../test-utils/catalogs';
import { NPM_SERVERS, runCli, temporaryDir } from '../test-utils/run-cli';

/** Paraphrases that share no word with their tool: BM25F cannot find them, meaning can. */
const PARAPHRASES = [
  { query: 'will I need an umbrella?', relevant: ['get_weather'] },
  { query: 'ping my manager', relevant: ['send_email'] },
  { query: 'book a slot', relevant: ['create_calendar_event'] },
  { query: 'say this in French', relevant: ['translate_text'] },
];

let endpoint: EmbeddingsServer;
let temp: Awaited<ReturnType<typeof temporaryDir>>;
let file: string;

beforeAll(async () => {
  endpoint = await startEmbeddingsServer();
});
afterAll(() => endpoint.close());
beforeEach(async () => {
  endpoint.requests.length = 0;
  temp = await temporaryDir();
  file = await temp.write('office.json', { tools: OFFICE_TOOLS, queries: PARAPHRASES });
});
afterEach(() => temp.dispose());

const flags = () => ['--embeddings-url', endpoint.url, '--embeddings-model', 'concepts'];

describe('tool-search search with an embeddings endpoint', () => {
  it('finds a paraphrase only with the endpoint, and says how it ranked', async () => {
    const plain = await runCli(['search', file, 'will I need an umbrella?']);
    expect(plain.stdout).toContain('No tool of');

    const run = await runCli(['search', file, 'will I need an umbrella?', ...flags()]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    // First by meaning, found by no word: half the score of a tool first in both rankings.
    expect(run.stdout).toMatch(/^1\s+get_weather\s+0\.500\s+\(by meaning\)/m);
    expect(run.stdout).toContain(
      '· default ranking · BM25F fused with concepts (reciprocal rank, scores 0 to 1)',
    );
    // Each tool text once, then the query.
    expect(endpoint.texts()).toHaveLength(OFFICE_TOOLS.length + 1);
    expect(endpoint.texts().at(-1)).toBe('will I need an umbrella?');
  });

  it('keeps the --json shape: an array of { id, score, description }, fused scores in (0, 1]', async () => {
    const run = await runCli(['search', file, 'email my manager', '--json', ...flags()]);
    const hits = JSON.parse(run.stdout) as { id: string; score: number; description: string }[];
    expect(hits[0]).toEqual({
      id: 'send_email',
      score: 1,
      description: OFFICE_TOOLS[1]!.description,
    });
    for (const hit of hits) {
      expect(Object.keys(hit).sort()).toEqual(['description', 'id', 'score']);
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
  });

  it('reads the endpoint from TOOL_SEARCH_EMBEDDINGS_URL, _MODEL and _API_KEY; --no-embeddings turns it off', async () => {
    const env = {
      TOOL_SEARCH_EMBEDDINGS_URL: endpoint.url,
      TOOL_SEARCH_EMBEDDINGS_MODEL: 'concepts',
      TOOL_SEARCH_EMBEDDINGS_API_KEY: 'k-env',
    };
    const run = await runCli(['search', file, 'book a slot'], { context: { env } });
    expect(run.stdout).toMatch(/^1\s+create_calendar_event\s/m);
    expect(new Set(endpoint.requests.map((request) => request.authorization))).toEqual(
      new Set(['Bearer k-env']),
    );
    endpoint.requests.length = 0;
    const off = await runCli(['search', file, 'book a slot', '--no-embeddings'], {
      context: { env },
    });
    expect(off.stdout).toContain('No tool of');
    expect(endpoint.requests).toEqual([]);
  });

  it('ranks by BM25F when the endpoint is down, and warns why', async () => {
    const run = await runCli([
      'search',
      file,
      'weather forecast',
      '--embeddings-url',
      await unreachableEmbeddingsUrl(),
      '--embeddings-model',
      'concepts',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^tool-search: the embeddings endpoint \(concepts at http:\/\/127\.0\.0\.1:\d+\/v1\) could not embed the catalog: The embedder failed: fetch failed.*; ranked by BM25F alone$/m,
    );
    expect(run.stdout).toMatch(/^1\s+get_weather\s+\d+\.\d{3}\s+id: weather/m);
    expect(run.stdout).toContain('· BM25F alone (the concepts endpoint failed)');
  });

  it('refuses embeddings flags that do not fit together', async () => {
    const cases: [string[], string][] = [
      [['--embeddings-url', endpoint.url], '--embeddings-url needs --embeddings-model'],
      [
        ['--embeddings-model', 'concepts'],
        '--embeddings-model and --embeddings-key-env need an endpoint',
      ],
      [['--no-embeddings', ...flags()], '--no-embeddings goes with no other'],
      [
        ['--embeddings-url', 'ftp://x', '--embeddings-model', 'm'],
        'must be an http: or https: URL',
      ],
      [
        [...flags(), '--embeddings-key-env', 'UNSET_KEY'],
        '--embeddings-key-env names UNSET_KEY, which is not set',
      ],
    ];
    for (const [extra, message] of cases) {
      const run = await runCli(['search', file, 'weather', ...extra], { context: { env: {} } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
    }
    const noModel = await runCli(['search', file, 'weather'], {
      context: { env: { TOOL_SEARCH_EMBEDDINGS_URL: endpoint.url } },
    });
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toContain(
      'TOOL_SEARCH_EMBEDDINGS_URL is set, but TOOL_SEARCH_EMBEDDINGS_MODEL is not',
    );
  });

  it('uses the --config file’s embeddings, with the key from the variable it names', async () => {
    const config = await temp.write('gateway.json', {
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [NPM_SERVERS.memory],
          env: { MEMORY_FILE_PATH: `${temp.dir}/memory.jsonl` },
        },
      },
      embeddings: { url: endpoint.url, model: 'concepts', apiKeyEnv: 'GATEWAY_EMBEDDINGS_KEY' },
    });
    const run = await runCli(['search', '--config', config, 'forget Bob', '--json'], {
      context: { env: { GATEWAY_EMBEDDINGS_KEY: 'k-config' } },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)[0].id).toBe('memory__delete_entities');
    expect(new Set(endpoint.requests.map((request) => request.authorization))).toEqual(
      new Set(['Bearer k-config']),
    );
    const unset = await runCli(['search', '--config', config, 'forget Bob'], {
      context: { env: {} },
    });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(
      `${config}: $.embeddings.apiKeyEnv: names the environment variable GATEWAY_EMBEDDINGS_KEY, which is not set`,
    );
  });
});

describe('tool-search eval with an embeddings endpoint', () => {
  it('reports the fused metrics beside BM25F’s, and the mode, in --json', async () => {
    const plain = JSON.parse((await runCli(['eval', file, '--json'])).stdout);
    expect(plain).toMatchObject({ mode: 'bm25f', recallAt5: 0, queries: 4 });
    expect(plain.bm25f).toBeUndefined();

    const run = await runCli(['eval', file, '--json', ...flags()]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      mode: 'fusion',
      embeddingsModel: 'concepts',
      recallAt1: 1,
      recallAt5: 1,
      mrr: 1,
      queries: 4,
      tools: 4,
      worst: [],
      bm25f: { recallAt1: 0, recallAt5: 0, recallAt10: 0, mrr: 0, ndcg: 0 },
    });
    // The catalog in one batch, the queries in another: no call per query.
    expect(endpoint.requests.map((request) => request.input.length)).toEqual([4, 4]);
  });

  it('prints fused, BM25F and the change side by side', async () => {
    const run = await runCli(['eval', file, ...flags()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `${file}: 4 queries, 4 tools, default ranking · BM25F fused with concepts (reciprocal rank)`,
    );
    expect(run.stdout).toMatch(/metric\s+fused\s+BM25F alone\s+change/);
    expect(run.stdout).toMatch(/recall@5\s+1\.000\s+0\.000\s+\+1\.000/);
    const plain = await runCli(['eval', file]);
    expect(plain.stdout).toContain('4 queries, 4 tools, default ranking · BM25F alone');
  });

  it('reports no metrics when the endpoint fails, rather than mixing modes', async () => {
    const run = await runCli([
      'eval',
      file,
      '--embeddings-url',
      await unreachableEmbeddingsUrl(),
      '--embeddings-model',
      'concepts',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/could not embed the catalog: The embedder failed: fetch failed/);
  });
});
