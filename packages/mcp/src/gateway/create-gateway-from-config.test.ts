import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { callTool, listToolNames, textOf } from '../test-utils/harness';
import { fixture } from '../test-utils/servers';
import { createGatewayFromConfig } from './create-gateway-from-config';

describe('createGatewayFromConfig', () => {
  it('builds a gateway from a config object that serves any MCP transport', async () => {
    const logs: string[] = [];
    const gateway = createGatewayFromConfig(
      { mcpServers: { local: fixture() }, toolSearch: { enabled: true, expose: 'proxy', topK: 2 } },
      { cache: false, log: (line) => logs.push(line) },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide);
    const client = new Client({ name: 'in-memory', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      expect(await listToolNames(client)).toEqual(['search_tools', 'load_tool', 'call_tool']);
      const search = await callTool(client, 'search_tools', { query: 'answer tool server' });
      expect((search.structuredContent as { results: unknown[] }).results).toHaveLength(2);
      await callTool(client, 'load_tool', { toolName: 'local__echo' });
      const echoed = await callTool(client, 'call_tool', {
        name: 'local__echo',
        arguments: { a: 1 },
      });
      expect(textOf(echoed)).toBe('{"a":1}');
      expect(logs).toContain('local: connected, 6 tool(s)');
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
