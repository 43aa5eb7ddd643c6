/** What a row of the `bench:cost` table is: an approach, played through its framework. */
import type { ConversationRecorder } from './cost-recorder';
import type { Exposure, ScriptedConversation } from './cost-script';
import type { DataSet } from './data';

/** Results per search in every row: the default of Mastra and of ours. */
export const COST_TOP_K = 5;

/** A provider whose prompt cache `bench:cost` prices. */
export type Provider = 'anthropic' | 'openai';

/** A row: one approach through one framework, in one exposure. */
export interface CostRow {
  key: string;
  label: string;
  exposure: Exposure;
  /**
   * The one provider whose price list applies, for a row that speaks that provider's API (the
   * provider-native rows); the other provider's columns print `n/a`. Unset: both apply.
   */
  provider?: Provider;
  /** Builds what every conversation over a data set's catalog shares (tool objects, a gateway). */
  prepare(data: DataSet): Promise<PreparedRow>;
}

/** A row ready to play conversations over one catalog. */
export interface PreparedRow {
  /** Plays the conversation to its end through the framework's own loop. */
  play(conversation: ScriptedConversation, recorder: ConversationRecorder): Promise<void>;
  /** The name the row exposes a data tool under, when it is not the tool's id. */
  nameOf?: (id: string) => string;
  /** The data id of an exposed name, when it is not the name itself. */
  idOf?: (name: string) => string | undefined;
  close(): Promise<void>;
}

/**
 * The adapter's options with `expose` set. Adapters without the option ignore it; a proxy row then
 * finds no `call_tool` among the meta-tools and is shown as not applicable.
 */
export function withExpose<T extends object>(options: T, exposure: Exposure): T {
  if (exposure === 'every-tool') return options;
  return Object.assign({}, options, { expose: exposure });
}

/** More model calls than any turn of a plan makes: the loop's own step limit never ends a turn. */
export function maxTurnSteps(plan: readonly unknown[]): number {
  return plan.length + 2;
}
