import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * A program that stands in for `npx -y server` on a cold start: a launcher and its child that
 * never answer, and that outlive a plain kill of the launcher (see the file for its flags).
 */
export const SLOW_START_UPSTREAM = fileURLToPath(
  new URL('./slow-start-upstream.mjs', import.meta.url),
);

/** A process as `/proc/<pid>/stat` describes it. */
export interface ProcessState {
  pid: number;
  /** `R`, `S`, `D`, `T`, ...; `Z` for a zombie (ended, not yet reaped). */
  state: string;
  parent: number;
  group: number;
}

/** What `/proc` says of a process now, or `undefined` when it is gone (Linux only). */
export function processState(pid: number): ProcessState | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp ...`: the command name may hold spaces, so read after its `)`.
  const [state, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, state: state!, parent: Number(parent), group: Number(group) };
}

/**
 * The processes of `pids` that still run: a zombie has ended (where PID 1 reaps no orphans, it
 * stays in `/proc` for good).
 */
export function stillRunning(pids: readonly number[]): ProcessState[] {
  return pids.flatMap((pid) => {
    const state = processState(pid);
    return state && state.state !== 'Z' && state.state !== 'X' ? [state] : [];
  });
}

/**
 * Waits until a pid file (lines of `<role> <pid>`, as the slow-start upstream writes them) names
 * `count` processes, and returns them by role.
 * @throws when they do not all appear within `timeout` ms
 */
export async function waitForPids(
  file: string,
  count: number,
  timeout = 20_000,
): Promise<Map<string, number>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    const entries = text
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string]);
    if (entries.length >= count) return new Map(entries.map(([role, pid]) => [role, Number(pid)]));
    if (Date.now() > deadline)
      throw new Error(`${file} named ${entries.length} of ${count} processes after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
