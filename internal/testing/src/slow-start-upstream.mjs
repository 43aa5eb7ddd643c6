#!/usr/bin/env node
// A stand-in for `npx -y some-mcp-server` on a cold start: a launcher (npm exec's part) that
// starts the "server" as its child and waits with it, neither speaking MCP yet (the download).
// Like npm exec, the launcher ends on SIGTERM without ending its child, which then lives on with
// parent PID 1 unless someone ends the whole process group. Neither reads stdin, so a closed
// stdin ends neither.
//   --pids FILE   each process appends "<role> <pid>" (role: launcher, server) once it runs
//   --stubborn    both also ignore SIGTERM: only SIGKILL ends them
//   --say TEXT    the launcher writes TEXT to stderr, then exits with code 7 (a failed fetch)
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pids: { type: 'string' },
    stubborn: { type: 'boolean', default: false },
    say: { type: 'string' },
    role: { type: 'string', default: 'launcher' },
  },
});
if (values.say !== undefined) {
  process.stderr.write(`${values.say}\n`);
  process.exit(7);
}
if (values.stubborn) process.on('SIGTERM', () => undefined);
else if (values.role === 'launcher') process.on('SIGTERM', () => process.exit(143));
if (values.role === 'launcher') {
  const args = [process.argv[1], '--role', 'server'];
  if (values.pids) args.push('--pids', values.pids);
  if (values.stubborn) args.push('--stubborn');
  spawn(process.execPath, args, { stdio: 'inherit' });
}
if (values.pids) appendFileSync(values.pids, `${values.role} ${process.pid}\n`);
setInterval(() => undefined, 60_000);
