/**
 * The conversations `bench:cost` prices: named shapes from issue 31 (a short task, a long
 * session, a 100-tool catalog) and the grid of step and load counts the benchmark has always run,
 * each over a data file's catalog or a subset of it.
 */
import { type DataSet, spread } from './data';
import { count } from './format';

/** One conversation shape. */
export interface Scenario {
  key: string;
  label: string;
  steps: number;
  loads: number;
  /** Play it on this many of the data set's tools (spread over the file). */
  tools?: number;
}

/**
 * Issue 31's shapes. Its short task is "6 steps, 2 loads", but a tool use is at least a search, a
 * load and a call, and the turn ends with an answer: 7 steps is the shortest plan in which both
 * loaded tools run (in 6, the second tool is loaded and never called).
 */
export const NAMED_SCENARIOS: readonly Scenario[] = [
  { key: 'short', label: 'short task: 7 steps, 2 loads', steps: 7, loads: 2 },
  { key: 'long', label: 'long session: 300 steps, 15 loads', steps: 300, loads: 15 },
  {
    key: 'catalog-100',
    label: '100-tool catalog: 50 steps, 5 loads',
    steps: 50,
    loads: 5,
    tools: 100,
  },
];

/** The grid's step and load counts when none are given. */
export const DEFAULT_GRID = { steps: [10, 50, 200], loads: [0, 3, 10] };

/** Every pair of step and load counts, as scenarios (`grid`). */
export function gridScenarios(steps: readonly number[], loads: readonly number[]): Scenario[] {
  return steps.flatMap((stepCount) =>
    loads.map((loadCount) => ({
      key: `${stepCount}x${loadCount}`,
      label: `${stepCount} steps, ${loadCount} loads`,
      steps: stepCount,
      loads: loadCount,
    })),
  );
}

/**
 * The scenarios `--scenarios` names (`short`, `long`, `catalog-100`, `grid`), in that order.
 * @param names - the keys; `grid` stands for every grid scenario
 * @param grid - the grid's scenarios
 */
export function pickScenarios(names: readonly string[], grid: readonly Scenario[]): Scenario[] {
  const known = new Set([...NAMED_SCENARIOS.map((scenario) => scenario.key), 'grid']);
  for (const name of names) {
    if (!known.has(name)) throw new Error(`unknown scenario ${name}: use ${[...known].join(', ')}`);
  }
  return [
    ...NAMED_SCENARIOS.filter((scenario) => names.includes(scenario.key)),
    ...(names.includes('grid') ? grid : []),
  ];
}

/**
 * `size` of the data set's tools, spread evenly over the file, and the queries whose labelled
 * tool is among them; the whole set when `size` is not smaller.
 */
export function subset(data: DataSet, size: number | undefined): DataSet {
  if (size === undefined || size >= data.tools.length) return data;
  const tools = spread(data.tools, size);
  const ids = new Set(tools.map((tool) => tool.id));
  const queries = data.queries.filter((query) => ids.has(query.relevant[0] ?? ''));
  if (queries.length === 0) throw new Error(`${size} tools: no query's labelled tool is left`);
  return { ...data, name: `${data.name}, ${count(size)} of its tools`, tools, queries };
}
