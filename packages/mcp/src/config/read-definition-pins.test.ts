import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './parse-gateway-config';

const servers = { mcpServers: { a: { command: 'node' } } };

describe('parseGatewayConfig: definitionPins, tracing and alwaysLoadHint', () => {
  it('reads them, resolving a relative pin file against the config folder', () => {
    const { config, warnings } = parseGatewayConfig(
      {
        mcpServers: {
          a: { command: 'node', alwaysLoadHint: false },
          b: { url: 'https://h/mcp', alwaysLoadHint: true },
        },
        definitionPins: { file: 'state/pins.json', newTools: 'quarantine' },
        tracing: { recordContent: true },
      },
      { file: 'gateway.json', baseDir: '/home/me' },
    );
    expect(warnings).toEqual([]);
    expect(config.definitionPins).toEqual({
      file: '/home/me/state/pins.json',
      newTools: 'quarantine',
    });
    expect(config.tracing).toEqual({ recordContent: true });
    expect(config.mcpServers.a).toMatchObject({ alwaysLoadHint: false });
    expect(config.mcpServers.b).toMatchObject({ alwaysLoadHint: true });
    expect(parseGatewayConfig({ ...servers, definitionPins: false }).config.definitionPins).toBe(
      false,
    );
  });

  it.each([
    [
      { definitionPins: { newTools: 'ask' } },
      '$.definitionPins.newTools: must be "trust" or "quarantine"',
    ],
    [{ definitionPins: { file: '' } }, '$.definitionPins.file: must be a non-empty string'],
    [{ definitionPins: 'yes' }, '$.definitionPins: must be an object'],
    [{ tracing: { recordContent: 'yes' } }, '$.tracing.recordContent: must be true or false'],
    [
      { mcpServers: { a: { command: 'node', alwaysLoadHint: 1 } } },
      '$.mcpServers.a.alwaysLoadHint: must be true or false',
    ],
  ])('refuses %j, naming the path', (extra, message) => {
    expect(() => parseGatewayConfig({ ...servers, ...extra }, { file: 'gateway.json' })).toThrow(
      `gateway.json: ${message}`,
    );
  });

  it('warns of unknown keys in the new sections', () => {
    const { warnings } = parseGatewayConfig(
      { ...servers, definitionPins: { files: 'x' }, tracing: { content: true } },
      { file: 'g.json' },
    );
    expect(warnings).toEqual([
      'g.json: $.definitionPins.files: unknown key, ignored',
      'g.json: $.tracing.content: unknown key, ignored',
    ]);
  });
});
