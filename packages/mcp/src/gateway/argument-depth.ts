/**
 * How deep tool arguments may nest. Far deeper than any tool's input schema goes, and far
 * shallower than the few thousand levels at which `JSON.stringify` (which sends them upstream)
 * runs out of stack.
 */
export const MAX_ARGUMENT_DEPTH = 256;

/**
 * Whether a JSON value nests objects and arrays more than `limit` levels deep. Walks without
 * recursion, and stops as soon as it knows, so a hostile value costs no more than its size.
 * @param value - parsed JSON (tool arguments)
 * @param limit - the deepest nesting allowed
 */
export function isNestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      pending.push([child, depth + 1]);
  }
  return false;
}
