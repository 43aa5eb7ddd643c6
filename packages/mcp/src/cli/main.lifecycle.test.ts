import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SLOW_START_UPSTREAM, stillRunning, waitForPids } from 'tool-search-testing/processes';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { GATEWAY_BIN, PACKAGE_ROOT } from '../test-utils/servers';

/** The gateway's bin, from source, as a child process with piped stdio. */
function startGateway(args: string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=tool-search-source', GATEWAY_BIN, ...args],
    { cwd: PACKAGE_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { child, stderr: () => stderr };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function waitForText(read: () => string, text: string, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!read().includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function slowConfig(
  dir: string,
  flags: string[] = [],
): Promise<{ config: string; pids: string }> {
  const pids = join(dir, 'pids');
  const config = join(dir, 'gateway.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        slow: { command: process.execPath, args: [SLOW_START_UPSTREAM, '--pids', pids, ...flags] },
      },
    }),
  );
  return { config, pids };
}

describe('tool-search-mcp (the bin) leaves nothing running', () => {
  it.each([
    ['its input ends', (child: ChildProcess) => child.stdin?.end()],
    ['it gets SIGTERM', (child: ChildProcess) => child.kill('SIGTERM')],
    ['it gets SIGINT', (child: ChildProcess) => child.kill('SIGINT')],
    ['it gets SIGHUP', (child: ChildProcess) => child.kill('SIGHUP')],
  ])('when %s while an upstream is still starting, children included', async (_, end) => {
    const temp = await temporaryDir();
    try {
      const { config, pids: pidsFile } = await slowConfig(temp.dir);
      const gateway = startGateway(['--config', config, '--no-cache']);
      const exit = exited(gateway.child);
      const pids = [...(await waitForPids(pidsFile, 2)).values()];
      expect(stillRunning(pids)).toHaveLength(2);
      end(gateway.child);
      expect(await exit).toEqual({ code: 0, signal: null });
      expect(stillRunning(pids)).toEqual([]);
    } finally {
      await temp.remove();
    }
  });

  it('when its input ends while a timed-out upstream that ignores SIGTERM is being stopped', async () => {
    const temp = await temporaryDir();
    try {
      const { config, pids: pidsFile } = await slowConfig(temp.dir, ['--stubborn']);
      const gateway = startGateway(['--config', config, '--no-cache', '--connect-timeout', '1500']);
      const exit = exited(gateway.child);
      const pids = [...(await waitForPids(pidsFile, 2)).values()];
      await waitForText(gateway.stderr, 'slow: it did not start within 1500 ms');
      gateway.child.stdin?.end();
      expect(await exit).toEqual({ code: 0, signal: null });
      expect(stillRunning(pids)).toEqual([]);
    } finally {
      await temp.remove();
    }
  });
});
