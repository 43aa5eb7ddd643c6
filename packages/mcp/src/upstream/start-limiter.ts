import { availableParallelism } from 'node:os';

/**
 * Upstream starts run at once by default: twice the cores, at least 2 and at most 16. Starting a
 * stdio server is mostly CPU (a Node or Python process loading its modules); 70 at once on 2
 * cores made each start take tens of seconds, so most missed their start timeout.
 */
export function defaultStartConcurrency(): number {
  return Math.min(MAX_DEFAULT_CONCURRENCY, Math.max(2, availableParallelism() * 2));
}

/** A machine with many cores still gains little past this many parallel process starts. */
const MAX_DEFAULT_CONCURRENCY = 16;

/**
 * Runs upstream starts at most `limit` at a time, in arrival order, except that urgent ones (a
 * start a tool call waits for) go before the queued background starts.
 */
export class StartLimiter {
  readonly limit: number;
  #running = 0;
  readonly #queue: (() => void)[] = [];

  /** @param limit - starts running at once (a positive integer) */
  constructor(limit: number) {
    if (!(Number.isInteger(limit) && limit > 0))
      throw new RangeError(`the start concurrency must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  /** Starts waiting for a slot now. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Runs a task once a slot is free. The task's own timers start when it runs, so a start
   * timeout counts from the start itself, never from the wait in the queue.
   */
  async run<T>(task: () => Promise<T>, options: { urgent?: boolean } = {}): Promise<T> {
    if (this.#running >= this.limit) {
      await new Promise<void>((resolve) => {
        if (options.urgent) this.#queue.unshift(resolve);
        else this.#queue.push(resolve);
      });
    } else {
      this.#running++;
    }
    try {
      return await task();
    } finally {
      const next = this.#queue.shift();
      // The slot passes straight to the next task, so `running` stays the same.
      if (next) next();
      else this.#running--;
    }
  }
}
