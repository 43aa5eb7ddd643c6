import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { FIXTURE_SERVER } from '../test-utils/servers';
import { FIRST_START_TIMEOUT, isPackageRunner, startTimeoutOf } from './start-timeout';
import { createUpstreamManager } from './upstream-manager';

describe('isPackageRunner', () => {
  it.each([
    [{ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }, true],
    [{ command: '/usr/local/bin/npx' }, true],
    [{ command: 'C:\\Program Files\\nodejs\\npx.cmd', args: ['-y', 'x'] }, true],
    [{ command: 'npm', args: ['--yes', 'exec', 'x'] }, true],
    [{ command: 'npm', args: ['run', 'server'] }, false],
    [{ command: 'pnpm', args: ['dlx', 'x'] }, true],
    [{ command: 'uvx', args: ['mcp-server-fetch'] }, true],
    [{ command: 'docker', args: ['run', '-i', '--rm', 'mcp/fetch'] }, true],
    [{ command: 'node', args: ['server.js'] }, false],
    [{ command: 'constructor', args: ['exec'] }, false],
    [{ url: 'https://mcp.example.com/mcp' }, false],
  ])('%o: %s', (config, expected) => {
    expect(isPackageRunner(config)).toBe(expected);
  });
});

describe('startTimeoutOf', () => {
  const npx = { command: 'npx', args: ['-y', 'x'] };

  it('gives a package runner’s first start the time to download, and later starts the timeout', () => {
    expect(startTimeoutOf(npx, { connectTimeout: 10_000, firstStart: true })).toBe(
      FIRST_START_TIMEOUT,
    );
    expect(startTimeoutOf(npx, { connectTimeout: 300_000, firstStart: true })).toBe(300_000);
    expect(startTimeoutOf(npx, { connectTimeout: 10_000, firstStart: false })).toBe(10_000);
    expect(
      startTimeoutOf(
        { command: 'node', args: ['s.js'] },
        { connectTimeout: 10_000, firstStart: true },
      ),
    ).toBe(10_000);
  });

  it('keeps an entry’s own connectTimeout as given', () => {
    expect(
      startTimeoutOf(
        { ...npx, connectTimeout: 5_000 },
        { connectTimeout: 5_000, firstStart: true },
      ),
    ).toBe(5_000);
  });
});

describe('a package runner’s first start, through the gateway', () => {
  it('gets the time to download that a later start does not', async () => {
    const temp = await temporaryDir();
    try {
      // An `npx` that takes 2.5 s before the server answers, as a cold download does.
      const npxPath = join(temp.dir, 'npx');
      await writeFile(
        npxPath,
        `#!/bin/sh\nsleep 2.5\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FIXTURE_SERVER)}\n`,
      );
      await chmod(npxPath, 0o755);
      const logs: string[] = [];
      const manager = createUpstreamManager({
        servers: { cold: { command: npxPath, args: ['-y', 'fixture'] } },
        connectTimeout: 1_000,
        restartBackoff: { initial: 0, max: 0 },
        log: (line) => logs.push(line),
      });
      try {
        await manager.start();
        expect(manager.states()[0]).toMatchObject({ status: 'ready' });
        // The upstream exits; its restart is no first start, so the 1 s timeout holds.
        await expect(manager.callTool('cold__crash', {})).rejects.toThrow(/unavailable/);
        await expect(manager.callTool('cold__echo', {})).rejects.toThrow(
          /did not start within 1000 ms/,
        );
      } finally {
        await manager.close();
      }
    } finally {
      await temp.remove();
    }
  });
});
