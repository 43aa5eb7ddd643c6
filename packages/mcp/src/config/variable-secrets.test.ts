// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config syntax under test is ${VAR}
/**
 * A secret kept in an environment variable never reaches a log line or an error: whatever echoes
 * a config value (the config's own errors, an upstream that fails to start, its stderr, an
 * embeddings endpoint that answers with the request it got) shows `${NAME}` as the file says.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { createEmbedFromConfig } from '../gateway/embeddings-from-config';
import { errorText } from '../gateway/gateway-text';
import { temporaryDir } from '../test-utils/harness';
import { createUpstreamManager, type UpstreamState } from '../upstream/upstream-manager';
import { parseGatewayConfig } from './parse-gateway-config';

const ENV = {
  KEY: 'sk-live-0123456789abcdef',
  TOKEN: 'tok+en/with=chars&more',
  USER: 'gateway-user',
  PASSWORD: 'p4ssw0rd-s3cret',
  EMBEDDINGS_KEY: 'emb-key-fedcba9876543210',
  BASE: 'mcp.example.com',
};
/** The values no message may carry, as they are or as a URL carries them. */
const SECRETS = [
  ENV.KEY,
  ENV.TOKEN,
  encodeURIComponent(ENV.TOKEN),
  ENV.PASSWORD,
  ENV.EMBEDDINGS_KEY,
];

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/**
 * A server that refuses every request with its method, URL and Authorization header in the
 * body, as many frameworks' default error pages do (Express: `Cannot POST /mcp?key=...`).
 */
async function startEchoingServer(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(
      `Cannot ${request.method} ${request.url} (authorization: ${request.headers.authorization})`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

describe('a config value a variable expanded', () => {
  it('is quoted as the file writes it when the config refuses it', () => {
    const refuse = () =>
      parseGatewayConfig(
        { mcpServers: { remote: { url: '${BASE}/mcp?key=${KEY}' } } },
        { env: ENV, file: 'gateway.json' },
      );
    expect(refuse).toThrow(
      'gateway.json: $.mcpServers.remote.url: is not a URL once its variables are read: "${BASE}/mcp?key=${KEY}"',
    );
    // The file's own text is still quoted when it holds no variable.
    expect(() =>
      parseGatewayConfig({ mcpServers: { remote: { url: 'example.com/mcp' } } }),
    ).toThrow('is not a URL: "example.com/mcp"');
  });

  it('stays out of the gateway command’s refusal of the config', async () => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'gateway.json');
      await writeFile(
        file,
        JSON.stringify({ mcpServers: { remote: { url: '${BASE}?k=${KEY}' } } }),
      );
      let stderr = '';
      const code = await main(['--config', file], {
        env: ENV,
        stderr: new Writable({
          write(chunk, _encoding, done) {
            stderr += String(chunk);
            done();
          },
        }),
      });
      expect(code).toBe(1);
      expect(stderr).toContain('"${BASE}?k=${KEY}"');
      expectNoSecret(stderr);
    } finally {
      await temp.remove();
    }
  });

  it('stays out of the logs, start errors and call errors of upstreams that fail to start', async () => {
    const echoing = await startEchoingServer(404);
    servers.push(echoing.server);
    const { config } = parseGatewayConfig(
      {
        mcpServers: {
          echoing: {
            url: `${echoing.url}/mcp?key=\${KEY}&token=\${TOKEN}`,
            headers: { Authorization: 'Bearer ${TOKEN}' },
          },
          // fetch refuses a URL with credentials, quoting the whole URL.
          credentials: { url: 'http://${USER}:${PASSWORD}@127.0.0.1:1/mcp' },
          // A server that prints its environment to stderr, which the gateway logs.
          talkative: {
            command: process.execPath,
            args: [
              '-e',
              'console.error("starting with key", process.env.API_KEY); process.exit(1)',
            ],
            env: { API_KEY: '${KEY}' },
          },
        },
      },
      { env: ENV },
    );
    const logs: string[] = [];
    const upstreams = createUpstreamManager({
      servers: config.mcpServers,
      connectTimeout: 15_000,
      restartBackoff: { initial: 0, max: 0 },
      log: (message) => logs.push(message),
    });
    try {
      await upstreams.start();
      const states: UpstreamState[] = upstreams.states();
      expect(states.map((state) => state.status)).toEqual(['failed', 'failed', 'failed']);
      const calls: string[] = [];
      for (const server of ['echoing', 'credentials', 'talkative']) {
        // What the model is answered when a call reaches a server that is down.
        await upstreams.callTool(`${server}__tool`, {}).then(
          () => calls.push('answered'),
          (error: Error) => calls.push(error.message),
        );
      }
      const everything = [...logs, ...states.map((state) => state.error ?? ''), ...calls].join(
        '\n',
      );
      expectNoSecret(everything);
      // The upstreams' own words are kept, with the references where the values were.
      expect(everything).toContain('/mcp?key=${KEY}&token=${TOKEN}');
      expect(everything).toContain('(authorization: Bearer ${TOKEN})');
      expect(everything).toContain('http://${USER}:${PASSWORD}@127.0.0.1:1/mcp');
      expect(everything).toContain('talkative (stderr): starting with key ${KEY}');
    } finally {
      await upstreams.close();
    }
  });

  it('stays out of the errors of an embeddings endpoint that echoes its request', async () => {
    const echoing = await startEchoingServer(401);
    servers.push(echoing.server);
    const { embed } = createEmbedFromConfig(
      { url: `${echoing.url}/v1`, model: 'test-embedding', apiKeyEnv: 'EMBEDDINGS_KEY' },
      { env: ENV },
    );
    const error = await embed(['a tool text']).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    const logged = errorText(error);
    expect(logged).toContain('401');
    expect(logged).toContain('(authorization: Bearer ${EMBEDDINGS_KEY})');
    expectNoSecret(logged);
  });
});
