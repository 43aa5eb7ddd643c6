/**
 * Plays one scenario of `bench:cost` through every row: the plan and queries every row shares,
 * one conversation per row with the scenario's content, and each row's priced figures.
 */
import type { ConversationContent } from './cost-content';
import { pickQueries, planConversation } from './cost-plan';
import type { BlockTokenizer } from './cost-request';
import type { CostRow, PreparedRow } from './cost-row';
import { failedRow, type RowResult, runRow } from './cost-run';
import type { Scenario } from './cost-scenarios';
import { ScriptedConversation } from './cost-script';
import type { DataSet } from './data';

/** Printed for a proxy row whose adapter offers no `call_tool`. */
const NOT_APPLICABLE = 'n/a (adapter has no expose option)';

/** The rows prepared over one catalog. */
export type PreparedRows = ReadonlyMap<CostRow, PreparedRow>;

/** Prepares every row over a data set's catalog. */
export async function prepareRows(
  rows: readonly CostRow[],
  data: DataSet,
): Promise<Map<CostRow, PreparedRow>> {
  const prepared = new Map<CostRow, PreparedRow>();
  for (const row of rows) prepared.set(row, await row.prepare(data));
  return prepared;
}

/** Closes prepared rows (their gateways and upstream processes). */
export async function closeRows(prepared: PreparedRows): Promise<void> {
  for (const ready of prepared.values()) await ready.close();
}

/** Options of {@link playScenario}. */
export interface PlayOptions {
  rows: readonly CostRow[];
  prepared: PreparedRows;
  data: DataSet;
  scenario: Scenario;
  content: ConversationContent;
  tokenizer: BlockTokenizer;
  /** Called after each row, e.g. to log its time. */
  onRow?: (result: RowResult) => void;
  /** Called with a row's error; the row is then shown as failed. */
  onError?: (error: unknown) => void;
}

/**
 * Each row's result, in row order, or why the scenario cannot be played (its loads do not fit its
 * steps, or the catalog has fewer callable labelled tools than loads).
 */
export async function playScenario(options: PlayOptions): Promise<RowResult[] | string> {
  const { data, scenario } = options;
  const plan = planConversation(scenario.steps, scenario.loads);
  if (typeof plan === 'string') return plan;
  const tools = new Map(data.tools.map((tool) => [tool.id, tool]));
  const queries = pickQueries(data.queries, tools, plan);
  const distinct = new Set(queries.slice(0, scenario.loads).map((query) => query.relevant[0]));
  if (distinct.size < scenario.loads) {
    return `n/a: ${scenario.loads} loads need as many tools the script can call, the catalog has ${distinct.size}`;
  }
  const results: RowResult[] = [];
  for (const row of options.rows) {
    const ready = options.prepared.get(row)!;
    const conversation = new ScriptedConversation({
      plan,
      queries,
      exposure: row.exposure,
      tools,
      content: options.content,
      ...(ready.nameOf && { nameOf: ready.nameOf }),
      ...(ready.idOf && { idOf: ready.idOf }),
    });
    const result = await runRow({
      row,
      prepared: ready,
      conversation,
      tokenizer: options.tokenizer,
      notApplicable: NOT_APPLICABLE,
    }).catch((error: unknown): RowResult => {
      options.onError?.(error);
      return failedRow(row, conversation, error);
    });
    options.onRow?.(result);
    results.push(result);
  }
  return results;
}
