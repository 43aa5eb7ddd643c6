/**
 * Starts and stops real `redis-server` processes (from PATH) for tests, benchmarks and the
 * Redis README's smoke run: on a free loopback port, with no persistence unless asked (then an
 * append-only file in a temporary folder, so a restart keeps the data, as a production Redis
 * would).
 *
 * It imports Node's built-in modules only: the tarball smoke test copies it beside the README
 * harness into a fresh npm project, where nothing of the workspace is installed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a starting redis-server may take to accept connections; it takes milliseconds when idle. */
const START_TIMEOUT_MS = 10_000;

/** Whether `redis-server` runs from PATH. */
export function hasRedisServer(): boolean {
  const result = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return result.status === 0;
}

/** A port on the loopback interface that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no free port')),
      );
    });
  });
}

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /**
   * Keep the data across `stop()` and `start()` (an append-only file, fsynced on every write).
   * @default false
   */
  persistent?: boolean;
  /**
   * Kill the server when this process exits, also after an uncaught error: for a script that
   * may end before it stops the server (a test runner stops its own in teardown).
   * @default false
   */
  killOnExit?: boolean;
}

/** A redis-server the caller controls. */
export interface RedisServer {
  readonly port: number;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
  /** Stops it for good and removes its data folder. */
  dispose(): Promise<void>;
}

/**
 * Starts a redis-server on a free loopback port and resolves once it accepts connections.
 * @param options - persistence, and whether to kill it when this process exits
 * @throws when redis-server is not on PATH, exits, or does not start within 10 s
 * @example
 * const server = await startRedisServer();
 * const client = new Redis(server.port);
 * // ...
 * await server.dispose();
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'tool-search-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    directory,
    '--save',
    '',
    '--appendonly',
    options.persistent ? 'yes' : 'no',
    '--appendfsync',
    'always',
  ];
  let child: ChildProcess | undefined;
  const killNow = (): void => {
    child?.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  };
  if (options.killOnExit) process.on('exit', killNow);

  const start = async (): Promise<void> => {
    const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = server;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(() => {
        server.kill('SIGKILL');
        settle(new Error(`redis-server did not start on port ${port}:\n${output}`));
      }, START_TIMEOUT_MS);
      server.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) settle();
      });
      server.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      server.once('error', (error) =>
        settle(new Error(`cannot run redis-server (is it on PATH?): ${error.message}`)),
      );
      server.once('exit', (code) =>
        settle(new Error(`redis-server exited with ${code}:\n${output}`)),
      );
    });
  };

  const stop = async (): Promise<void> => {
    const server = child;
    child = undefined;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    // A paused server must be thawed to act on SIGTERM.
    server.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  };

  try {
    await start();
  } catch (error) {
    if (options.killOnExit) process.off('exit', killNow);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async dispose() {
      await stop();
      if (options.killOnExit) process.off('exit', killNow);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
