/**
 * The plan every row of `bench:cost` plays: model moves fixed by the step and load counts, and the
 * data set's queries it searches for.
 */
import { exampleArguments } from './cost-arguments';
import type { DataQuery, DataTool } from './data';

/** One planned move. `query` indexes the conversation's queries. */
export type PlanStep =
  | { kind: 'search'; query: number }
  | { kind: 'load'; query: number }
  | { kind: 'call' }
  | { kind: 'answer' };

/**
 * The plan of a conversation of `steps` model calls with `loads` loads, or an error message when
 * the loads do not fit (each needs its search before it, and the last step is an answer).
 * Searches for loads use queries `0 .. loads-1`. The model searches only when it needs a tool:
 * until the first load it answers in text, after it it calls the loaded tools and answers, so a
 * conversation without loads is a plain chat, which every row holds the same.
 */
export function planConversation(steps: number, loads: number): PlanStep[] | string {
  if (!Number.isInteger(steps) || steps < 1) return 'needs at least one step';
  if (loads > 0 && steps < 2 * loads + 1) {
    return `n/a: ${loads} loads need at least ${2 * loads + 1} steps (a search before each, an answer last)`;
  }
  const plan: (PlanStep | undefined)[] = new Array(steps).fill(undefined);
  for (let load = 0; load < loads; load++) {
    const at = Math.floor((load * steps) / loads) + 1;
    plan[at - 1] = { kind: 'search', query: load };
    plan[at] = { kind: 'load', query: load };
  }
  plan[steps - 1] ??= { kind: 'answer' };
  let loaded = 0;
  const out: PlanStep[] = [];
  for (let index = 0; index < steps; index++) {
    const planned = plan[index];
    const previous = out[index - 1];
    let step: PlanStep;
    if (planned !== undefined) step = planned;
    else if (previous?.kind === 'load' || (previous?.kind === 'answer' && loaded > 0))
      step = { kind: 'call' };
    else step = { kind: 'answer' };
    if (step.kind === 'load') loaded++;
    out.push(step);
  }
  return out;
}

/** How many queries a plan searches with. */
export function plannedQueries(plan: readonly PlanStep[]): number {
  let count = 0;
  for (const step of plan) if (step.kind === 'search') count = Math.max(count, step.query + 1);
  return count;
}

/**
 * The queries a conversation uses: first the loads' (queries whose labelled tool the script can
 * call with valid arguments, one query per tool, so that every load brings a new tool), then the
 * others', spread over the data set so that a run does not depend on the file's order.
 */
export function pickQueries(
  queries: readonly DataQuery[],
  tools: ReadonlyMap<string, DataTool>,
  plan: readonly PlanStep[],
): DataQuery[] {
  const loads = plan.filter((step) => step.kind === 'load').length;
  const labelled = new Set<string>();
  const callable = queries.filter((query) => {
    const id = query.relevant[0] ?? '';
    const tool = tools.get(id);
    if (tool === undefined || labelled.has(id)) return false;
    labelled.add(id);
    return exampleArguments(tool.inputSchema) !== undefined;
  });
  const needed = plannedQueries(plan);
  const picked = spreadEvenly(callable, loads);
  const rest = spreadEvenly(
    queries.filter((query) => !picked.includes(query)),
    needed - picked.length,
  );
  return [...picked, ...rest];
}

function spreadEvenly<T>(items: readonly T[], count: number): T[] {
  if (count <= 0 || items.length === 0) return [];
  return Array.from(
    { length: count },
    (_, index) => items[Math.floor((index * items.length) / count) % items.length]!,
  );
}
