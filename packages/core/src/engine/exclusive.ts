const tails = new Map<unknown, Promise<unknown>>();

/**
 * Runs `task` after every earlier task with the same key has settled, so two parallel tool calls
 * of one thread cannot overwrite each other's loads. Keys are dropped once idle.
 */
export function runExclusive<TResult>(
  key: unknown,
  task: () => Promise<TResult>,
): Promise<TResult> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
