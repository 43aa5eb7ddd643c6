import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolSearchEngine } from '../engine/tool-search-engine';
import type { SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { createOpenAICompatibleEmbed } from './openai-compatible-embed';

interface Received {
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

/** A tiny OpenAI-compatible server: `answer` decides each response from the request. */
async function startServer(
  answer: (request: Received, response: ServerResponse) => void = (request, response) => {
    // Vectors in reverse order with their `index`, as the API allows: the client must reorder.
    const data = request.body.input
      .map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1] }))
      .reverse();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data, model: request.body.model }));
  },
) {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const entry = { url: request.url, headers: request.headers, body: JSON.parse(text) };
    received.push(entry);
    answer(entry, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}/v1`, received };
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

describe('createOpenAICompatibleEmbed', () => {
  it('posts batches to /embeddings and returns vectors in input order', async () => {
    const { url, received } = await startServer();
    const embed = createOpenAICompatibleEmbed({
      url: `${url}/`,
      model: 'text-embedding-3-small',
      apiKey: 'sk-test',
      headers: { 'X-Team': 'search' },
      batchSize: 2,
      dimensions: 2,
    });
    const vectors = await embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(vectors).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 1],
    ]);
    expect(received.map((request) => request.body.input)).toEqual([
      ['a', 'bb'],
      ['ccc', 'dddd'],
      ['eeeee'],
    ]);
    expect(received[0]).toMatchObject({
      url: '/v1/embeddings',
      headers: {
        authorization: 'Bearer sk-test',
        'x-team': 'search',
        'content-type': 'application/json',
      },
      body: { model: 'text-embedding-3-small', encoding_format: 'float', dimensions: 2 },
    });
  });

  it('takes a URL that already ends in /embeddings, and sends no key when none is given', async () => {
    const { url, received } = await startServer();
    await createOpenAICompatibleEmbed({ url: `${url}/embeddings`, model: 'm' })(['x']);
    expect(received[0]!.url).toBe('/v1/embeddings');
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(received[0]!.body).not.toHaveProperty('dimensions');
  });

  it('rejects with the status and the API’s message on an error answer', async () => {
    const { url } = await startServer((_, response) => {
      response.writeHead(429, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"Rate limit reached"}}');
    });
    await expect(createOpenAICompatibleEmbed({ url, model: 'm' })(['x'])).rejects.toThrow(
      /429.*Rate limit reached/,
    );
  });

  it.each([
    ['not JSON', 'oops', /did not answer JSON/],
    ['too few embeddings', '{"data":[]}', /answered 0 embeddings for 1 texts/],
    ['no data', '{"error":null}', /answered no embeddings/],
    ['a malformed embedding', '{"data":[{"index":0,"embedding":"AAAA"}]}', /malformed/],
    [
      'duplicate indexes',
      '{"data":[{"index":1,"embedding":[1]},{"index":1,"embedding":[2]}]}',
      /duplicate/,
    ],
  ])('rejects %s', async (_, body, message) => {
    const { url } = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
    const texts = body.includes('"index":1') ? ['x', 'y'] : ['x'];
    await expect(createOpenAICompatibleEmbed({ url, model: 'm' })(texts)).rejects.toThrow(message);
  });

  it('aborts the request when the engine stops waiting', async () => {
    const { url, received } = await startServer(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const pending = createOpenAICompatibleEmbed({ url, model: 'm' })(['x'], {
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });

  it('rejects bad options', () => {
    expect(() => createOpenAICompatibleEmbed({ url: '', model: 'm' })).toThrow(/url/);
    expect(() => createOpenAICompatibleEmbed({ url: 'http://x', model: '' })).toThrow(/model/);
    expect(() =>
      createOpenAICompatibleEmbed({ url: 'http://x', model: 'm', batchSize: 0 }),
    ).toThrow(/batchSize/);
  });

  it('gives an engine semantic search over HTTP', async () => {
    const concepts = ['umbrella precipitation rain', 'money currency exchange'];
    const { url } = await startServer((request, response) => {
      const data = request.body.input.map((text, index) => ({
        index,
        embedding: concepts.map((words) =>
          words.split(' ').some((word) => text.toLowerCase().includes(word)) ? 1 : 0.01,
        ),
      }));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data }));
    });
    const engine = createToolSearchEngine<{ description: string }>({
      tools: {
        precipitation_forecast: { description: 'Chance of precipitation tomorrow' },
        convert_currency: { description: 'Convert money between currencies' },
      },
      describe: (tool, key) => ({ id: key, description: tool.description }),
      embed: createOpenAICompatibleEmbed({ url, model: 'm' }),
    });
    const output = (await engine
      .createSession()
      .metaTools[0]!.execute({ query: 'will I need an umbrella?' })) as SearchToolsOutput;
    expect(output.results[0]!.name).toBe('precipitation_forecast');
  });
});
