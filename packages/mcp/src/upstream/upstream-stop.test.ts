import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SLOW_START_UPSTREAM, stillRunning, waitForPids } from 'tool-search-testing/processes';
import { describe, expect, it } from 'vitest';
import type { StdioUpstreamConfig } from '../config/gateway-config';
import { createToolSearchGateway } from '../gateway/tool-search-gateway';
import { callTool, temporaryDir } from '../test-utils/harness';
import { createUpstreamManager, listUpstreamTools } from './upstream-manager';

/** The stand-in for a cold `npx -y server`: a launcher and its child, neither answering. */
function slowStart(pids: string, flags: string[] = []): StdioUpstreamConfig {
  return { command: process.execPath, args: [SLOW_START_UPSTREAM, '--pids', pids, ...flags] };
}

async function withTemp<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const temp = await temporaryDir();
  try {
    return await run(temp.dir);
  } finally {
    await temp.remove();
  }
}

describe('stopping upstreams', () => {
  it.each([
    ['that leave a closed stdin and SIGTERM to their children', []],
    ['that ignore SIGTERM', ['--stubborn']],
  ])('ends an upstream still starting, with its children, %s', async (_, flags) => {
    await withTemp(async (dir) => {
      const pidsFile = join(dir, 'pids');
      const manager = createUpstreamManager({
        servers: { slow: slowStart(pidsFile, flags) },
        connectTimeout: 60_000,
        log: () => undefined,
      });
      void manager.start();
      const pids = [...(await waitForPids(pidsFile, 2)).values()];
      expect(stillRunning(pids)).toHaveLength(2);
      await manager.close();
      expect(stillRunning(pids)).toEqual([]);
    });
  });

  it('waits, when closed, for the stop of an upstream that timed out while starting', async () => {
    await withTemp(async (dir) => {
      const pidsFile = join(dir, 'pids');
      let timedOut: (line: string) => void = () => undefined;
      const timeoutLine = new Promise<string>((resolve) => {
        timedOut = resolve;
      });
      const manager = createUpstreamManager({
        servers: { slow: slowStart(pidsFile, ['--stubborn']) },
        connectTimeout: 1_500,
        log: (line) => {
          if (line.includes('did not start within')) timedOut(line);
        },
      });
      void manager.start();
      const pids = [...(await waitForPids(pidsFile, 2)).values()];
      expect(await timeoutLine).toMatch(/^slow: it did not start within 1500 ms/);
      // The timed-out start's stop has begun, unawaited; a group that ignores SIGTERM takes
      // seconds to end, and close() must not return before it has.
      expect(stillRunning(pids)).toHaveLength(2);
      await manager.close();
      expect(stillRunning(pids)).toEqual([]);
    });
  });

  it('ends what an upstream left behind when it exits on its own', async () => {
    await withTemp(async (dir) => {
      const pidsFile = join(dir, 'pids');
      const manager = createUpstreamManager({
        servers: { slow: slowStart(pidsFile) },
        connectTimeout: 60_000,
        log: () => undefined,
      });
      const started = manager.start();
      const pids = await waitForPids(pidsFile, 2);
      // The launcher ends as npm exec does on SIGTERM, without its child.
      process.kill(pids.get('launcher')!, 'SIGTERM');
      await started;
      const deadline = Date.now() + 10_000;
      while (stillRunning([pids.get('server')!]).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stillRunning([...pids.values()])).toEqual([]);
      expect(manager.states()[0]).toMatchObject({ status: 'failed' });
      await manager.close();
    });
  });

  it('leaves nothing running when listing is aborted mid-start', async () => {
    await withTemp(async (dir) => {
      const pidsFile = join(dir, 'pids');
      const controller = new AbortController();
      const listing = listUpstreamTools({
        servers: { slow: slowStart(pidsFile, ['--stubborn']) },
        connectTimeout: 60_000,
        log: () => undefined,
        signal: controller.signal,
      });
      const pids = [...(await waitForPids(pidsFile, 2)).values()];
      controller.abort(new Error('stop now'));
      await expect(listing).rejects.toThrow('stop now');
      expect(stillRunning(pids)).toEqual([]);
    });
  });
});

describe('an upstream that cannot start', () => {
  it('is named with how it exited and what it printed, its secrets masked, in the state, log and search', async () => {
    const fetchError = [
      'npm error code SELF_SIGNED_CERT_IN_CHAIN',
      'npm error request to https://registry.npmjs.org/x failed, reason: self-signed certificate in certificate chain',
      'npm error token tok-0123456789 was refused by https://me:hunter22@proxy.corp:3128',
    ].join('\n');
    const logs: string[] = [];
    const upstreams = createUpstreamManager({
      servers: {
        broken: {
          command: process.execPath,
          args: [SLOW_START_UPSTREAM, '--say', fetchError],
          env: { NPM_TOKEN: 'tok-0123456789' },
        },
      },
      log: (line) => logs.push(line),
    });
    const gateway = createToolSearchGateway({ upstreams, log: () => undefined });
    try {
      await gateway.ready();
      const [state] = upstreams.states();
      const expected =
        'it exited with code 7 while starting; its stderr ends: npm error code SELF_SIGNED_CERT_IN_CHAIN | npm error request to https://registry.npmjs.org/x failed, reason: self-signed certificate in certificate chain | npm error token *** was refused by https://***@proxy.corp:3128';
      expect(state?.status).toBe('failed');
      expect(state?.error).toContain(expected);
      expect(logs.some((line) => line.startsWith('broken: ') && line.includes(expected))).toBe(
        true,
      );
      expect(logs.join('\n')).not.toContain('tok-0123456789');
      expect(logs.join('\n')).not.toContain('hunter22');

      const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
      await gateway.connect(gatewaySide);
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(clientSide);
      const answer = (await callTool(client, 'search_tools', { query: 'anything' }))
        .structuredContent as { notSearchable: string[]; message: string };
      expect(answer.notSearchable).toEqual(['broken']);
      expect(answer.message).toContain('could not be started: broken (');
      expect(answer.message).toContain('it exited with code 7');
      expect(answer.message).toContain('SELF_SIGNED_CERT_IN_CHAIN');
      expect(answer.message).not.toContain('tok-0123456789');
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});
