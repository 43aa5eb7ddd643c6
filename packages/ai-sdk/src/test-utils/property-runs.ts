/**
 * Settings of the property suites: a seed read from `TOOL_SEARCH_PROPERTY_SEED` (printed, so a
 * CI failure can be replayed), an optional replay path from `TOOL_SEARCH_PROPERTY_PATH`, and a
 * run count scaled by `TOOL_SEARCH_PROPERTY_SCALE` (e.g. `10` for a long local hunt).
 * Each package keeps its own copy of this small file: test helpers are not published.
 */
import type fc from 'fast-check';

/** The largest seed fast-check takes (a 32-bit signed integer). */
const MAX_SEED = 0x7fffffff;

/**
 * fast-check parameters for one suite.
 * @param suite - the suite's name, printed with the seed
 * @param numRuns - generated sequences in a normal (CI) run
 */
export function propertyRuns(suite: string, numRuns: number): fc.Parameters<unknown> {
  const fromEnvironment = process.env.TOOL_SEARCH_PROPERTY_SEED;
  const seed =
    fromEnvironment !== undefined && fromEnvironment !== ''
      ? Number(fromEnvironment)
      : Math.floor(Math.random() * MAX_SEED);
  if (!Number.isSafeInteger(seed))
    throw new TypeError(`TOOL_SEARCH_PROPERTY_SEED must be an integer, got "${fromEnvironment}"`);
  const scale = Number(process.env.TOOL_SEARCH_PROPERTY_SCALE ?? '1');
  const runs = Math.max(1, Math.round(numRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
  const path = process.env.TOOL_SEARCH_PROPERTY_PATH;
  console.info(
    `[property] ${suite}: TOOL_SEARCH_PROPERTY_SEED=${seed} numRuns=${runs}${path ? ` path=${path}` : ''}`,
  );
  return { seed, numRuns: runs, ...(path ? { path } : {}) };
}
