import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../config/parse-gateway-config';
import {
  callTool,
  listToolNames,
  listTools,
  startHttpGateway,
  temporaryDir,
  textOf,
} from '../test-utils/harness';
import { fixture, npmServer } from '../test-utils/servers';
import { toolSearchMode } from './gateway-engine';

describe('the gateway with toolSearch.enabled', () => {
  it('lists a small catalog directly under "auto" (the default), no meta-tools, and runs a direct call', async () => {
    const gateway = await startHttpGateway({
      servers: { local: fixture() },
      toolSearch: { enabled: 'auto', expose: 'proxy' },
    });
    try {
      const client = await gateway.connect();
      const names = await listToolNames(client);
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((name) => name.startsWith('local__'))).toBe(true);
      expect(gateway.gateway.engine.searchesCatalog).toBe(false);
      // No instructions about meta-tools that are not there.
      expect(client.getInstructions()).toBeUndefined();
      const echo = await callTool(client, 'local__echo', { text: 'hi' });
      expect(echo.isError).toBeFalsy();
      expect(textOf(echo)).toContain('hi');
      expect(await listToolNames(client)).toEqual(names);
    } finally {
      await gateway.close();
    }
  });

  it('searches once the tools weigh the threshold, and always under true', async () => {
    const temp = await temporaryDir();
    for (const toolSearch of [{ enabled: 'auto' as const, threshold: 50 }, { enabled: true }]) {
      const gateway = await startHttpGateway({
        servers: { filesystem: npmServer('filesystem', [temp.dir]) },
        toolSearch: { expose: 'proxy', ...toolSearch },
      });
      try {
        const client = await gateway.connect();
        expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'call_tool']);
        expect(client.getInstructions()).toContain('search_tools');
      } finally {
        await gateway.close();
      }
    }
    await temp.remove();
  });

  it('lists every tool under false, with their own definitions', async () => {
    const temp = await temporaryDir();
    const gateway = await startHttpGateway({
      servers: { filesystem: npmServer('filesystem', [temp.dir]) },
      toolSearch: { enabled: false, expose: 'proxy' },
    });
    try {
      const client = await gateway.connect();
      const tools = await listTools(client);
      expect(tools.some((tool) => tool.name === 'search_tools')).toBe(false);
      const write = tools.find((tool) => tool.name === 'filesystem__write_file');
      expect(write?.inputSchema).toMatchObject({ properties: { path: {}, content: {} } });
    } finally {
      await gateway.close();
      await temp.remove();
    }
  });
});

describe('toolSearch.enabled, threshold and definitions in the config', () => {
  it('reads them, defaults to "auto", and names what is wrong', () => {
    expect(toolSearchMode({})).toBe('auto');
    expect(toolSearchMode({ threshold: 800 })).toEqual({ threshold: 800 });
    expect(toolSearchMode({ enabled: false, threshold: 800 })).toBe(false);
    const read = (toolSearch: unknown) =>
      parseGatewayConfig({ mcpServers: {}, toolSearch }, { file: 'gateway.json' }).config
        .toolSearch;
    expect(read({ enabled: 'auto', threshold: 5000, definitions: 1 })).toEqual({
      enabled: 'auto',
      threshold: 5000,
      definitions: 1,
    });
    expect(() => read({ enabled: 'sometimes' })).toThrow(
      /\$\.toolSearch\.enabled: must be true, false or "auto"/,
    );
    expect(() => read({ threshold: -1 })).toThrow(/\$\.toolSearch\.threshold/);
    expect(() => read({ definitions: 1.5 })).toThrow(/\$\.toolSearch\.definitions/);
  });
});
