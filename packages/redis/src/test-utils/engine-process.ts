/** Starts {@link ./engine-worker.ts} in a child process and talks to it. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const WORKER = path.join(import.meta.dirname, 'engine-worker.ts');
const REGISTER = path.join(import.meta.dirname, 'register-ts.ts');

/** An engine in another OS process. */
export interface EngineProcess {
  readonly pid: number;
  /** Loads each name at once, each as its own request; resolves to each `load_tool` output. */
  load(threadId: string, names: string[]): Promise<Record<string, unknown>[]>;
  /** The thread's active tool ids, in order. */
  active(threadId: string): Promise<string[]>;
  /** `unload_tool` with these names. */
  unload(threadId: string, names: string[]): Promise<Record<string, unknown>>;
  /** Store errors the process reported through `onError`. */
  errors(): string[];
  /** Ends the process. */
  close(): Promise<void>;
}

/** Starts an engine process on the Redis at `port` and waits until its client is ready. */
export async function startEngineProcess(config: {
  port: number;
  keyPrefix: string;
  maxLoadedTools?: number;
}): Promise<EngineProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=tool-search-source', '--import', REGISTER, WORKER, JSON.stringify(config)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const pending = new Map<number, (reply: Record<string, unknown>) => void>();
  let lastErrors: string[] = [];
  let nextId = 1;
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`engine process exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const reply = JSON.parse(line) as Record<string, unknown>;
      if (reply.ready) return resolve();
      if (Array.isArray(reply.errors)) lastErrors = reply.errors as string[];
      pending.get(reply.id as number)?.(reply);
      pending.delete(reply.id as number);
    });
  });
  await ready;

  const request = (message: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) =>
        reply.crash ? reject(new Error(`engine process: ${reply.crash}`)) : resolve(reply),
      );
      child.stdin!.write(`${JSON.stringify({ id, ...message })}\n`);
    });

  return {
    pid: child.pid!,
    load: async (threadId, names) =>
      (await request({ op: 'load', threadId, names })).results as Record<string, unknown>[],
    active: async (threadId) => (await request({ op: 'active', threadId })).active as string[],
    unload: async (threadId, names) =>
      (await request({ op: 'unload', threadId, names })).result as Record<string, unknown>,
    errors: () => lastErrors,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
