import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import {
  type JSONRPCMessage,
  ReadBuffer,
  SdkError,
  SdkErrorCode,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { terminateProcessGroup, trackProcessGroup } from './process-group';

/** How a child process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options of a {@link ProcessGroupTransport}. */
export interface ProcessGroupTransportOptions {
  command: string;
  args: readonly string[];
  /** The child's whole environment (nothing else is inherited). */
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Receives the child's stderr, decoded, chunk by chunk. */
  onStderr?: (chunk: string) => void;
  /** Called once when the child (the group's leader) has exited. */
  onExit?: (exit: ProcessExit) => void;
}

/** After its stdin closes, a server that reads it exits at once; it gets this long before SIGTERM. */
const STDIN_GRACE_MS = 500;

/**
 * The MCP stdio client transport, with the server started as the leader of its own process
 * group, so that stopping it stops everything it started: `npx` runs the server as a grandchild
 * (npm exec, a shell, node), which outlived the SDK's transport (it signals the direct child
 * only) with parent PID 1, holding npx's lock. Messages are newline-delimited JSON-RPC read
 * with the SDK's own buffer (its 10 MiB limit). When the leader exits, or `close()` is called,
 * the rest of the group is ended too (SIGTERM, then SIGKILL), and if this process exits first,
 * its exit hook kills what is left. POSIX only: the gateway uses the SDK's transport on Windows.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly #options: ProcessGroupTransportOptions;
  readonly #readBuffer = new ReadBuffer();
  #child: ChildProcessWithoutNullStreams | undefined;
  #exit: ProcessExit | undefined;
  #exited: Promise<void> | undefined;
  /** Resolves once nothing of the group runs (after the leader's exit or a close). */
  #ended: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ProcessGroupTransportOptions) {
    this.#options = options;
  }

  /** The child's process id (also its group's id), once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('ProcessGroupTransport already started');
    if (this.#closing)
      return Promise.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    const { command, args, env, cwd, onStderr, onExit } = this.#options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env,
        ...(cwd !== undefined && { cwd }),
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group (and session): one signal reaches everything it starts.
        detached: true,
        shell: false,
      });
      this.#child = child;
      const groupId = child.pid;
      if (groupId !== undefined) trackProcessGroup(groupId);
      this.#exited = new Promise((settled) => child.once('exit', () => settled()));
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        onExit?.(this.#exit);
        // What the leader left behind (npm's children) ends with it: its pipes close then, too.
        if (groupId !== undefined) this.#ended ??= terminateProcessGroup(groupId);
      });
      child.on('close', () => this.onclose?.());
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.#received(chunk));
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => onStderr?.(chunk));
      child.stderr.on('error', () => undefined);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.#child?.stdin;
      if (!stdin || this.#closing || this.#exit)
        throw new SdkError(SdkErrorCode.NotConnected, 'Not connected');
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Stops the server and everything it started: closes its stdin, gives it a moment to exit on
   * its own, then ends its process group (SIGTERM, SIGKILL after 1.5 s). Resolves once nothing
   * of the group runs, within about 3 s.
   */
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    const groupId = child?.pid;
    if (child && groupId !== undefined) {
      try {
        child.stdin.end();
      } catch {
        // Already closed.
      }
      if (this.#exit === undefined) {
        await Promise.race([
          this.#exited,
          new Promise((resolve) => setTimeout(resolve, STDIN_GRACE_MS).unref()),
        ]);
      }
      this.#ended ??= terminateProcessGroup(groupId);
      await this.#ended;
      // Nothing writes to the pipes any more; destroying them lets `close` (and onclose) fire
      // even if a process that left the group still holds them.
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
    }
    this.#readBuffer.clear();
  }

  #received(chunk: Buffer): void {
    try {
      this.#readBuffer.append(chunk);
    } catch (error) {
      // Past the SDK's limit for one message: the server is unusable, as the SDK's transport has it.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    while (true) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }
}
