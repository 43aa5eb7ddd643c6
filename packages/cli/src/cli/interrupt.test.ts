import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SLOW_START_UPSTREAM, stillRunning, waitForPids } from 'tool-search-testing/processes';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, TS_NODE_ARGS, temporaryDir } from '../test-utils/run-cli';

describe('tool-search, stopped while it starts MCP servers', () => {
  it.each([
    ['SIGINT', ['--stubborn']],
    ['SIGTERM', []],
    ['SIGHUP', []],
  ] as const)(
    'stops them and their children on %s, says so and exits 130',
    async (signal, flags) => {
      const temp = await temporaryDir();
      try {
        const pidsFile = join(temp.dir, 'pids');
        // A stand-in for a cold `npx -y server`: a launcher and its child, neither answering
        // (`--stubborn`: both deaf to SIGTERM, so only the group's SIGKILL ends them).
        const command = [process.execPath, SLOW_START_UPSTREAM, '--pids', pidsFile, ...flags]
          .map((word) => JSON.stringify(word))
          .join(' ');
        const child = spawn(
          process.execPath,
          [...TS_NODE_ARGS, CLI_BIN, 'inspect', '--mcp', command, '--connect-timeout', '60000'],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
        const pids = [...(await waitForPids(pidsFile, 2)).values()];
        child.kill(signal);
        expect(await exit).toBe(130);
        expect(stillRunning(pids)).toEqual([]);
        expect(stderr).toBe(
          `tool-search: stopped by ${signal}; the MCP servers it started are stopped\n`,
        );
      } finally {
        await temp.dispose();
      }
    },
  );
});
