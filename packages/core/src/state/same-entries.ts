import type { LoadedToolEntry } from './loaded-tools-store';

/**
 * Whether two lists of loaded tools hold the same ids, used at the same times, in the same
 * order: a change that leaves a thread like this changed nothing, and is not written.
 * @param left - one thread's entries
 * @param right - the entries to compare them with
 */
export function sameEntries(
  left: readonly LoadedToolEntry[],
  right: readonly LoadedToolEntry[],
): boolean {
  return (
    left.length === right.length &&
    left.every(
      (entry, position) =>
        entry.id === right[position]!.id && entry.usedAt === right[position]!.usedAt,
    )
  );
}
