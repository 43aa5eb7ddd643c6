/**
 * Settings of the property suites, so that every failure can be replayed:
 * - the seed comes from `TOOL_SEARCH_PROPERTY_SEED`; without it, CI (`CI` set) uses a fixed seed
 *   (the same sequences on every run: CI is never flaky) and a local run draws a random one (new
 *   sequences each time: local runs hunt);
 * - `TOOL_SEARCH_PROPERTY_PATH` and `TOOL_SEARCH_PROPERTY_REPLAY_PATH` replay one shrunk failure
 *   (the first is fast-check's path to the failing case, the second the commands' own replay path);
 * - `TOOL_SEARCH_PROPERTY_SCALE` multiplies the run count (e.g. `10` for a long local hunt).
 * A failure prints the exact variables that replay it.
 */
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/** The largest seed fast-check takes (a 32-bit signed integer). */
const MAX_SEED = 0x7fffffff;
/** CI's seed when none is given: any fixed value; this one is the reliability issue's number. */
export const CI_SEED = 15;

/**
 * The limit of a property or load test that sizes its work by a run count: a hang guard, never a
 * speed gate. Measured with the machine's other core busy (a CPU hog beside the suite), the
 * slowest such test took 10 s (`tool-index.sync.test.ts`, whose 40 runs generate about 8 MB of
 * nested schemas), twice the default 5 s limit; this leaves room for a second suite beside it.
 */
export const PROPERTY_TEST_TIMEOUT = 60_000;

/**
 * fast-check parameters for one suite.
 * @param suite - the suite's name, printed with the seed
 * @param numRuns - generated sequences in a normal (CI) run
 */
export function propertyRuns(suite: string, numRuns: number): fc.Parameters<unknown> {
  const seed = seedOf(process.env.TOOL_SEARCH_PROPERTY_SEED);
  const scale = Number(process.env.TOOL_SEARCH_PROPERTY_SCALE ?? '1');
  const runs = Math.max(1, Math.round(numRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
  const path = process.env.TOOL_SEARCH_PROPERTY_PATH || undefined;
  console.info(
    `[property] ${suite}: TOOL_SEARCH_PROPERTY_SEED=${seed} numRuns=${runs}${path ? ` path=${path}` : ''}`,
  );
  return {
    seed,
    numRuns: runs,
    ...(path && { path }),
    reporter(details) {
      if (!details.failed) return;
      const error = new Error(
        `${fc.defaultReportMessage(details)}\n\nReplay this failure with:\n  ${replayLine(details)}`,
        { cause: details.errorInstance },
      );
      throw error;
    },
  };
}

/**
 * Constraints for `fc.commands`, with the commands' replay path from
 * `TOOL_SEARCH_PROPERTY_REPLAY_PATH` (without it, fast-check cannot replay a shrunk sequence).
 * @param maxCommands - the longest generated sequence
 */
export function commandsConstraints(maxCommands: number): fc.CommandsContraints {
  const replayPath = process.env.TOOL_SEARCH_PROPERTY_REPLAY_PATH || undefined;
  return { maxCommands, ...(replayPath && { replayPath }) };
}

function seedOf(fromEnvironment: string | undefined): number {
  if (fromEnvironment === undefined || fromEnvironment === '')
    return process.env.CI ? CI_SEED : Math.floor(Math.random() * MAX_SEED);
  const seed = Number(fromEnvironment);
  if (!Number.isSafeInteger(seed))
    throw new TypeError(`TOOL_SEARCH_PROPERTY_SEED must be an integer, got "${fromEnvironment}"`);
  return seed;
}

/** The environment that replays a failure: its seed, its path and the commands' replay path. */
function replayLine(details: fc.RunDetails<unknown>): string {
  const replayPath = /replayPath="([^"]*)"/.exec(fc.stringify(details.counterexample))?.[1];
  const variables = [
    `TOOL_SEARCH_PROPERTY_SEED=${details.seed}`,
    `TOOL_SEARCH_PROPERTY_PATH=${details.counterexamplePath}`,
    ...(replayPath !== undefined ? [`TOOL_SEARCH_PROPERTY_REPLAY_PATH='${replayPath}'`] : []),
  ];
  const test = expect.getState().testPath;
  const file = test === undefined ? '<this test file>' : relative(process.cwd(), test);
  return `${variables.join(' ')} pnpm exec vitest run ${file}`;
}
