import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../config/parse-gateway-config';
import { temporaryDir } from '../test-utils/harness';
import { fixture } from '../test-utils/servers';
import { upstreamEnvironment } from './upstream-environment';
import { listUpstreamTools } from './upstream-manager';

/** A gateway's environment on a machine behind a TLS-inspecting proxy, with secrets beside. */
const GATEWAY_ENV = {
  HOME: '/home/me',
  PATH: '/usr/bin:/bin',
  TERM: 'xterm',
  NODE_EXTRA_CA_CERTS: '/etc/ssl/corp-ca.pem',
  SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
  SSL_CERT_DIR: '/etc/ssl/certs',
  HTTPS_PROXY: 'http://proxy.corp:3128',
  http_proxy: 'http://proxy.corp:3128',
  NO_PROXY: 'localhost,.corp',
  npm_config_registry: 'https://npm.corp/',
  NPM_CONFIG_CAFILE: '/etc/ssl/corp-ca.pem',
  // Set by `npm --silent run gateway`: an npx that inherits it cannot say why it failed.
  npm_config_loglevel: 'silent',
  NODE_OPTIONS: '--inspect',
  OPENAI_API_KEY: 'sk-secret',
  AWS_PROFILE: 'dev',
  AWS_REGION: 'eu-west-1',
  BASH_FUNC_greet: '() { echo hi; }',
} satisfies NodeJS.ProcessEnv;

describe('upstreamEnvironment', () => {
  it('passes the SDK defaults and the network, TLS and npm variables, and nothing else', () => {
    expect(upstreamEnvironment({}, GATEWAY_ENV)).toEqual({
      HOME: '/home/me',
      PATH: '/usr/bin:/bin',
      TERM: 'xterm',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
      SSL_CERT_DIR: '/etc/ssl/certs',
      HTTPS_PROXY: 'http://proxy.corp:3128',
      http_proxy: 'http://proxy.corp:3128',
      NO_PROXY: 'localhost,.corp',
      npm_config_registry: 'https://npm.corp/',
      NPM_CONFIG_CAFILE: '/etc/ssl/corp-ca.pem',
    });
  });

  it('adds what inheritEnv names or globs, withholds what withholdEnv does, and lets env win', () => {
    const environment = upstreamEnvironment(
      {
        inheritEnv: ['AWS_*', 'NODE_OPTIONS', 'NOT_SET', 'BASH_FUNC_*'],
        withholdEnv: ['*_proxy', 'HTTPS_PROXY', 'npm_config_*', 'AWS_REGION', 'PATH'],
        env: { PATH: '/opt/server/bin', EXTRA: 'yes' },
      },
      GATEWAY_ENV,
    );
    expect(environment).toEqual({
      HOME: '/home/me',
      PATH: '/opt/server/bin',
      TERM: 'xterm',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
      SSL_CERT_DIR: '/etc/ssl/certs',
      NO_PROXY: 'localhost,.corp',
      // Globs are case-sensitive, as variable names are: `npm_config_*` leaves the upper-case one.
      NPM_CONFIG_CAFILE: '/etc/ssl/corp-ca.pem',
      NODE_OPTIONS: '--inspect',
      AWS_PROFILE: 'dev',
      EXTRA: 'yes',
    });
  });

  it('keeps odd names as plain keys', () => {
    const environment = upstreamEnvironment(
      { env: { ['__proto__']: 'x', constructor: 'y' } },
      { PATH: '/bin' },
    );
    expect(Object.keys(environment)).toEqual(['PATH', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(environment)).toBe(Object.prototype);
  });
});

describe('a stdio upstream’s environment', () => {
  it('is the one the config asks for, read from the gateway’s environment', async () => {
    const temp = await temporaryDir();
    try {
      const file = join(temp.dir, 'env.json');
      const { config } = parseGatewayConfig({
        mcpServers: {
          server: {
            ...fixture(['--write-env', file]),
            inheritEnv: ['AWS_PROFILE'],
            withholdEnv: ['http_proxy'],
            env: { MEMORY_FILE_PATH: '/tmp/memory.jsonl' },
          },
        },
      });
      const { states } = await listUpstreamTools({
        servers: config.mcpServers,
        env: GATEWAY_ENV,
        log: () => undefined,
      });
      expect(states[0]).toMatchObject({ status: 'ready' });
      const seen = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      expect(seen).toMatchObject({
        NODE_EXTRA_CA_CERTS: '/etc/ssl/corp-ca.pem',
        HTTPS_PROXY: 'http://proxy.corp:3128',
        npm_config_registry: 'https://npm.corp/',
        AWS_PROFILE: 'dev',
        MEMORY_FILE_PATH: '/tmp/memory.jsonl',
      });
      for (const name of [
        'http_proxy',
        'OPENAI_API_KEY',
        'NODE_OPTIONS',
        'AWS_REGION',
        'npm_config_loglevel',
      ])
        expect(seen).not.toHaveProperty(name);
    } finally {
      await temp.remove();
    }
  });

  it('is refused with the JSON path when a config names a variable that cannot be one', () => {
    expect(() =>
      parseGatewayConfig(
        { mcpServers: { server: { command: 'node', inheritEnv: ['OK', 'A=B'] } } },
        { file: 'gateway.json' },
      ),
    ).toThrow(
      'gateway.json: $.mcpServers.server.inheritEnv[1]: must be a variable name or a * glob, without = or NUL, got "A=B"',
    );
    expect(() =>
      parseGatewayConfig({ mcpServers: { server: { command: 'node', withholdEnv: 'PATH' } } }),
    ).toThrow('config: $.mcpServers.server.withholdEnv: must be an array of strings');
  });
});
