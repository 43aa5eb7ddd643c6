import { readdirSync, readFileSync } from 'node:fs';

/** After SIGTERM, a process group gets this long to exit before SIGKILL: servers save and quit. */
const TERM_GRACE_MS = 1_500;
/** After SIGKILL, which nothing can catch, how long to wait for the kernel to end the group. */
const KILL_WAIT_MS = 1_000;
/** How often to look whether a group has ended. */
const POLL_MS = 25;

/** Groups started and not yet seen gone: the exit hook kills what is left of them. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Records a child started as the leader of its own process group (`detached: true`), so that
 * whatever of the group is still running when this process exits, for any reason but SIGKILL,
 * is killed with it (`process.on('exit')`, whose handlers run synchronously).
 */
export function trackProcessGroup(groupId: number): void {
  liveGroups.add(groupId);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

/**
 * Ends a process group: SIGTERM to every member, SIGKILL to those left after a grace period,
 * then waits until none runs. Resolves within about 2.5 s whatever the members do.
 * @param groupId - the group's id (its leader's pid)
 */
export async function terminateProcessGroup(groupId: number): Promise<void> {
  try {
    if (!isGroupRunning(groupId)) return;
    signalGroup(groupId, 'SIGTERM');
    if (await waitUntilEnded(groupId, TERM_GRACE_MS)) return;
    signalGroup(groupId, 'SIGKILL');
    await waitUntilEnded(groupId, KILL_WAIT_MS);
  } finally {
    // A member that outlived SIGKILL's wait (a process stuck in the kernel) is left to the exit hook.
    if (!isGroupRunning(groupId)) liveGroups.delete(groupId);
  }
}

/**
 * Whether any process of the group still runs. A zombie does not count: where PID 1 does not
 * reap orphans (some container inits), a member that exited stays in the process table for good,
 * and `kill(-group, 0)` would report it alive forever.
 */
export function isGroupRunning(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
  } catch (error) {
    // EPERM: a member runs as another user (it changed its own uid); it runs all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform === 'linux' ? hasLivingMember(groupId) : true;
}

function hasLivingMember(groupId: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended while we looked
    }
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses, so read after the last `)`.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === groupId && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // ESRCH: the group has ended meanwhile.
  }
}

async function waitUntilEnded(groupId: number, timeout: number): Promise<boolean> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (!isGroupRunning(groupId)) return true;
  }
  return !isGroupRunning(groupId);
}
