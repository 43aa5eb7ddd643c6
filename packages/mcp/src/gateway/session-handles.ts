import { randomUUID } from 'node:crypto';

/** Options of {@link SessionHandles}. */
export interface SessionHandlesOptions {
  /** Handles kept at most; past it the least recently used one is forgotten. */
  max: number;
  /** A handle unused this long (ms) is forgotten. */
  idleTtl: number;
  /** Called with each forgotten handle's thread, to clear its loaded tools. */
  onForget: (threadId: string) => void;
}

/** Threads of handles are named apart from session threads, so no handle can name a session. */
const THREAD_PREFIX = 'handle:';

/**
 * The session handles of protocol revision 2026-07-28, which has no sessions: a `load_tool`
 * that loads something mints a random handle, and the client passes it back to name its thread
 * of loaded tools. A handle is a capability like an HTTP session id: only minted handles are
 * accepted (a client can never pick a thread), and memory stays bounded by `max` and `idleTtl`.
 */
export class SessionHandles {
  readonly #options: SessionHandlesOptions;
  /** Handle to last use (ms since epoch), in least-recently-used order. */
  readonly #lastUse = new Map<string, number>();

  constructor(options: SessionHandlesOptions) {
    this.#options = options;
  }

  /** Handles alive now. */
  get size(): number {
    return this.#lastUse.size;
  }

  /** The thread of loaded tools a handle names. */
  static threadOf(handle: string): string {
    return `${THREAD_PREFIX}${handle}`;
  }

  /**
   * A new random handle, not alive yet: a call may load under its thread first, and the handle
   * is {@link keep}-ed only if it did, so a request that loads nothing takes no one's room.
   */
  draft(): string {
    return randomUUID();
  }

  /** Makes a drafted handle alive, making room past `max` (the least recently used go first). */
  keep(handle: string): void {
    this.#expire();
    this.#lastUse.delete(handle);
    this.#lastUse.set(handle, Date.now());
    for (const oldest of this.#lastUse.keys()) {
      if (this.#lastUse.size <= this.#options.max) break;
      this.forget(oldest);
    }
  }

  /** Whether a handle is alive; a live one counts as used now. */
  use(handle: string): boolean {
    this.#expire();
    if (!this.#lastUse.has(handle)) return false;
    this.#lastUse.delete(handle);
    this.#lastUse.set(handle, Date.now());
    return true;
  }

  /** Forgets a handle and clears its thread. */
  forget(handle: string): void {
    if (!this.#lastUse.delete(handle)) return;
    this.#options.onForget(SessionHandles.threadOf(handle));
  }

  /** The threads of the live handles. */
  threads(): string[] {
    return [...this.#lastUse.keys()].map((handle) => SessionHandles.threadOf(handle));
  }

  /** Forgets every handle. */
  clear(): void {
    for (const handle of [...this.#lastUse.keys()]) this.forget(handle);
  }

  #expire(): void {
    const oldestAllowed = Date.now() - this.#options.idleTtl;
    for (const [handle, used] of this.#lastUse) {
      if (used >= oldestAllowed) break;
      this.forget(handle);
    }
  }
}
