// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config syntax under test is ${VAR}
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './parse-gateway-config';

describe('parseGatewayConfig with ${VAR}', () => {
  it('reads ${VAR} in env, headers and url from the environment, and names a missing one', () => {
    const env = { TOKEN: 'secret', HOST: 'mcp.example.com', EMPTY: '' };
    const { config } = parseGatewayConfig(
      {
        mcpServers: {
          local: {
            command: 'node',
            args: ['${TOKEN}'],
            env: { API_KEY: 'k-${TOKEN}', MODE: '${EMPTY:-dev}' },
          },
          remote: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      },
      { env },
    );
    // Only env, headers and url are read: args stay as written.
    expect(config.mcpServers.local).toEqual({
      command: 'node',
      args: ['${TOKEN}'],
      env: { API_KEY: 'k-secret', MODE: 'dev' },
    });
    expect(config.mcpServers.remote).toEqual({
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer secret' },
    });
    expect(() =>
      parseGatewayConfig(
        { mcpServers: { remote: { url: 'https://x/mcp', headers: { A: '${NOPE}' } } } },
        { env, file: 'gateway.json' },
      ),
    ).toThrow(
      'gateway.json: $.mcpServers.remote.headers.A: names the environment variable NOPE, which is not set',
    );
    expect(() =>
      parseGatewayConfig({ mcpServers: { s: { command: 'x', env: { A: '${1BAD}' } } } }, { env }),
    ).toThrow(/must be \$\{NAME\}/);
    expect(() =>
      parseGatewayConfig(
        { mcpServers: { s: { command: 'x', env: { A: '${__proto__}' } } } },
        { env: {} },
      ),
    ).toThrow(/__proto__, which is not set/);
  });
});
