import { describe, expect, it } from 'vitest';
import { GatewayConfigError } from './config-error';
import { parseGatewayConfig } from './parse-gateway-config';

const servers = { mcpServers: {} };

function problem(storage: unknown): string {
  try {
    parseGatewayConfig({ ...servers, storage }, { file: 'gateway.json' });
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a GatewayConfigError');
}

describe('parseGatewayConfig: storage', () => {
  it('reads a Redis storage entry', () => {
    const storage = {
      type: 'redis',
      url: 'rediss://user:secret@redis.internal:6380/2',
      keyPrefix: 'gateway:prod:',
      ttl: 0,
      timeout: 500,
    };
    const { config, warnings } = parseGatewayConfig({ ...servers, storage });
    expect(config.storage).toEqual(storage);
    expect(warnings).toEqual([]);
    expect(parseGatewayConfig(servers).config.storage).toBeUndefined();
  });

  it('names the JSON path of every wrong value', () => {
    expect(problem('redis://x')).toBe(
      'gateway.json: $.storage: must be an object, got the string "redis://x"',
    );
    expect(problem({ url: 'redis://x' })).toBe('gateway.json: $.storage: needs "type": "redis"');
    expect(problem({ type: 'memcached', url: 'x' })).toBe(
      'gateway.json: $.storage.type: must be "redis" (the only shared storage), got the string "memcached"',
    );
    expect(problem({ type: 'redis' })).toBe(
      'gateway.json: $.storage.url: must be a non-empty string, got nothing',
    );
    expect(problem({ type: 'redis', url: 'not a url' })).toBe(
      'gateway.json: $.storage.url: is not a URL: "not a url"',
    );
    expect(problem({ type: 'redis', url: 'http://redis:6379' })).toBe(
      'gateway.json: $.storage.url: must be a redis: or rediss: URL',
    );
    expect(problem({ type: 'redis', url: 'redis://x', keyPrefix: 'a{b}' })).toMatch(
      /^gateway\.json: \$\.storage\.keyPrefix: must be a string without \{ or \}/,
    );
    expect(problem({ type: 'redis', url: 'redis://x', ttl: -1 })).toBe(
      'gateway.json: $.storage.ttl: must be an integer >= 0, got number -1',
    );
    expect(problem({ type: 'redis', url: 'redis://x', timeout: 0 })).toBe(
      'gateway.json: $.storage.timeout: must be an integer >= 1, got number 0',
    );
  });

  it('warns of unknown keys', () => {
    const { warnings } = parseGatewayConfig(
      { ...servers, storage: { type: 'redis', url: 'redis://x', db: 2 } },
      { file: 'gateway.json' },
    );
    expect(warnings).toEqual(['gateway.json: $.storage.db: unknown key, ignored']);
  });
});
