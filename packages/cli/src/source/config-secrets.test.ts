// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config syntax under test is ${VAR}
/**
 * `--config FILE` never prints what a `${NAME}` in the file expanded to: the config's refusal,
 * a server's start error and its stderr show `${NAME}` as the file says, also under `--debug`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli, temporaryDir } from '../test-utils/run-cli';

const KEY = 'sk-live-0123456789abcdef';
const TOKEN = 'bearer-token-fedcba9876';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
let echoing: Server;
let echoingUrl: string;
beforeEach(async () => {
  temp = await temporaryDir();
  // The gateway's config reader reads the process's environment, as it does in a shell.
  vi.stubEnv('CLI_TEST_KEY', KEY);
  vi.stubEnv('CLI_TEST_TOKEN', TOKEN);
  vi.stubEnv('CLI_TEST_BASE', 'no-scheme.example.com');
  // Refuses every request with what it got in the body, as frameworks' default error pages do.
  echoing = createServer((request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end(`Cannot ${request.method} ${request.url} (${request.headers.authorization})`);
  });
  await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve));
  echoingUrl = `http://127.0.0.1:${(echoing.address() as AddressInfo).port}`;
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => echoing.close(resolve));
  await temp.dispose();
});

function expectNoSecret(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(TOKEN);
}

describe('--config with ${VAR} secrets', () => {
  it('quotes a refused url as the file writes it', async () => {
    const config = await temp.write('gateway.json', {
      mcpServers: { remote: { url: '${CLI_TEST_BASE}/mcp?key=${CLI_TEST_KEY}' } },
    });
    const run = await runCli(['search', '--config', config, 'anything']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('"${CLI_TEST_BASE}/mcp?key=${CLI_TEST_KEY}"');
    expectNoSecret(run.stderr + run.stdout);
  });

  it('prints a server’s start error and stderr with the references, also under --debug', async () => {
    const config = await temp.write('gateway.json', {
      mcpServers: {
        remote: {
          url: `${echoingUrl}/mcp?key=\${CLI_TEST_KEY}`,
          headers: { Authorization: 'Bearer ${CLI_TEST_TOKEN}' },
        },
        local: {
          command: process.execPath,
          args: ['-e', 'console.error("Error: bad key", process.env.API_KEY); process.exit(1)'],
          env: { API_KEY: '${CLI_TEST_KEY}' },
        },
      },
    });
    for (const debug of [[], ['--debug']]) {
      const run = await runCli(['search', '--config', config, 'anything', ...debug]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('/mcp?key=${CLI_TEST_KEY} (Bearer ${CLI_TEST_TOKEN})');
      expect(run.stderr).toContain('Error: bad key ${CLI_TEST_KEY}');
      expectNoSecret(run.stderr + run.stdout);
    }
  });
});
