import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server answered. */
export interface EmbeddingsRequest {
  model: unknown;
  input: string[];
  authorization: string | undefined;
}

/** A local OpenAI-compatible embeddings endpoint for tests. */
export interface EmbeddingsServer {
  /** The base URL to configure, ending in `/v1`. */
  url: string;
  requests: EmbeddingsRequest[];
  /** Every text embedded, in order. */
  texts(): string[];
  close(): Promise<void>;
}

/**
 * Words per concept: a text's vector counts its words per concept (plus a small constant, so no
 * text is the zero vector). It knows a few synonyms of the test catalog's tools and of the memory
 * server's, so "will I need an umbrella?" lands on the weather tool and "forget Bob" on deleting
 * entities, though neither shares a word with its tool.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  // The office catalog of tool-search-cli's tests (its test-utils/catalogs.ts).
  ['umbrella', 'rain', 'weather', 'forecast', 'sunny'],
  ['email', 'mail', 'message', 'ping', 'recipient', 'manager'],
  ['calendar', 'meeting', 'event', 'slot', 'book', 'schedule'],
  ['translate', 'language', 'french', 'spanish', 'say'],
  // The memory server.
  ['forget', 'erase', 'delete', 'remove', 'wipe'],
  ['entities', 'entity', 'person', 'people', 'bob', 'alice'],
  ['observations', 'observation', 'facts', 'fact', 'notes'],
  ['relations', 'relation', 'link', 'links', 'connected'],
  ['graph', 'knowledge', 'everything'],
  ['search', 'find', 'lookup', 'query'],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [
    ...CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length),
    0.05,
  ];
}

/**
 * Starts `POST {url}/embeddings` on a free loopback port: deterministic vectors, in the OpenAI
 * response shape, every request recorded.
 */
export async function startEmbeddingsServer(): Promise<EmbeddingsServer> {
  const requests: EmbeddingsRequest[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += String(chunk);
    });
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/v1/embeddings')) {
        response.writeHead(404).end('not found');
        return;
      }
      const parsed = JSON.parse(body) as { model: unknown; input: string | string[] };
      const input = typeof parsed.input === 'string' ? [parsed.input] : parsed.input;
      requests.push({ model: parsed.model, input, authorization: request.headers.authorization });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          object: 'list',
          model: parsed.model,
          data: input.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: conceptVector(text),
          })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    texts: () => requests.flatMap((request) => request.input),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL where nothing listens: a server started, then closed. */
export async function unreachableEmbeddingsUrl(): Promise<string> {
  const server = await startEmbeddingsServer();
  await server.close();
  return server.url;
}
