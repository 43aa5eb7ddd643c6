/**
 * A server's `_meta["anthropic/alwaysLoad"]` hint, with real upstream processes: the tool is
 * listed and callable without a search, in one order whatever order the servers list in, unless
 * the config turns the hint off; a quarantined tool is never pinned.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config';
import { eventually } from '../test-utils/gateway-process';
import { callTool, listToolNames, temporaryDir, textOf } from '../test-utils/harness';
import { fixture } from '../test-utils/servers';
import { createManifestCache } from '../upstream/manifest-cache';
import { createGatewayFromConfig } from './create-gateway-from-config';
import { serveGatewayHttp } from './serve-http';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const schema = { type: 'object', properties: {} };
const hinted = (name: string) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: schema,
  _meta: { 'anthropic/alwaysLoad': true },
});
const plain = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: schema });

async function toolsFile(dir: string, name: string, tools: unknown[]): Promise<string> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(tools));
  return file;
}

async function connected(config: GatewayConfig, options: { cacheDir?: string } = {}) {
  // A few small tools weigh less than the "auto" threshold: these tests are about search's pins.
  const searching = { ...config, toolSearch: { enabled: true, ...config.toolSearch } };
  const gateway = createGatewayFromConfig(searching, {
    cache: options.cacheDir ? createManifestCache(options.cacheDir) : false,
    log: () => undefined,
  });
  const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(gatewaySide);
  const client = new Client({ name: 'always-load', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(async () => {
    await client.close();
    await gateway.close();
  });
  await gateway.ready();
  return { gateway, client };
}

describe('the alwaysLoad hint', () => {
  it('pins hinted tools without a search (config names first, then by name), except where the config turns it off', async () => {
    const temp = await temporaryDir();
    cleanups.push(temp.remove);
    const lists = async (reversed: boolean) => {
      const order = <T>(items: T[]) => (reversed ? [...items].reverse() : items);
      return {
        mcpServers: {
          b: fixture([
            '--tools-json',
            await toolsFile(temp.dir, `b-${reversed}`, order([hinted('beta'), plain('other')])),
          ]),
          a: fixture([
            '--tools-json',
            await toolsFile(
              temp.dir,
              `a-${reversed}`,
              order([hinted('zeta'), plain('plain'), hinted('alpha')]),
            ),
          ]),
          c: fixture(
            ['--tools-json', await toolsFile(temp.dir, `c-${reversed}`, [hinted('gamma')])],
            {
              alwaysLoadHint: false,
            },
          ),
        },
        toolSearch: { alwaysLoaded: ['a__plain'] },
      } satisfies GatewayConfig;
    };
    const expected = [
      'search_tools',
      'load_tool',
      'call_tool',
      'a__plain',
      'a__alpha',
      'a__zeta',
      'b__beta',
    ];
    const { client } = await connected(await lists(false));
    expect(await listToolNames(client)).toEqual(expected);
    // Callable at once, like every pinned tool: no search, no load.
    expect(textOf(await callTool(client, 'a__alpha'))).toBe('alpha ran');
    expect(textOf(await callTool(client, 'call_tool', { name: 'b__beta', arguments: {} }))).toBe(
      'beta ran',
    );
    // c's hint is off: gamma is not pinned (not listed), and runs, as any exposed tool does under
    // proxy, only by a call that loads it.
    expect(textOf(await callTool(client, 'c__gamma'))).toBe('gamma ran');
    expect(await listToolNames(client)).toEqual(expected);

    // The servers list their tools in the opposite order: the gateway's list keeps its order.
    const again = await connected(await lists(true));
    expect(await listToolNames(again.client)).toEqual(expected);
  }, 60_000);

  it('never pins a tool while it is quarantined, and lists the same order on the 2026-07-28 revision with its cache hint', async () => {
    const temp = await temporaryDir();
    cleanups.push(temp.remove);
    const config: GatewayConfig = {
      mcpServers: {
        a: fixture([
          '--set-description',
          '--list-ttl',
          '5000',
          '--tools-json',
          await toolsFile(temp.dir, 'a', [hinted('alpha'), plain('plain')]),
        ]),
      },
    };
    const { gateway, client } = await connected(config, { cacheDir: join(temp.dir, 'cache') });
    const http = await serveGatewayHttp(gateway, { port: 0 });
    cleanups.push(() => http.close());
    const modern = new Client(
      { name: 'modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new StreamableHTTPClientTransport(http.url));
    cleanups.push(() => modern.close());
    const modernList = async () =>
      (await modern.request({ method: 'tools/list', params: {} })) as Record<string, unknown> & {
        tools: { name: string }[];
      };
    const first = await modernList();
    expect(first.tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
      'a__alpha',
    ]);
    // The pinned tool's server keeps its list 5 s: so does the gateway's list that holds it.
    expect(first).toMatchObject({ ttlMs: 5000, cacheScope: 'private' });

    await callTool(client, 'load_tool', { toolName: 'a__set_description' });
    await callTool(client, 'call_tool', {
      name: 'a__set_description',
      arguments: { tool: 'alpha', description: 'Changed behind your back' },
    });
    await eventually(
      async () => !(await listToolNames(client)).includes('a__alpha'),
      'the quarantined tool leaves the list',
    );
    const after = await modernList();
    expect(after.tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
    ]);
    // No pinned tool left: the gateway's own minute.
    expect(after).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect((await callTool(client, 'a__alpha')).isError).toBe(true);
  }, 60_000);
});
