/** Helpers of the resource benchmarks: heap after GC, and numeric flags. */

/** The heap in use after a full collection; needs `node --expose-gc`. */
export function heapAfterGc(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc (pnpm bench:resources does)');
  // Twice: the first pass can leave objects that finalizers free for the second.
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** A positive integer flag (`--name 1000`), or its default. */
export function parseCount(argv: readonly string[], flag: string, fallback: number): number {
  const at = argv.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  if (!(Number.isInteger(value) && value > 0))
    throw new Error(`${flag} needs a positive integer, got ${argv[at + 1]}`);
  return value;
}
