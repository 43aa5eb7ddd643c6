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
 * What a row passes to its adapter besides the tools, through the adapter's own options (an
 * adapter ignores an option it does not have). Issue 31's options go here: `search.definitions`
 * (definitions in a search answer) and `toolSearch` (`'auto'`: every tool below a threshold).
 */
export interface RowOptions {
  expose?: 'tools' | 'proxy';
  search?: { topK?: number; definitions?: number };
  toolSearch?: boolean | 'auto' | { threshold: number };
}

/**
 * `expose: 'tools'` as every adapter row sets it, always searching (`toolSearch: true`): the row
 * measures tool search itself, whatever the catalog weighs; the defaults rows measure `'auto'`.
 */
export const TOOLS_OPTIONS: RowOptions = {
  expose: 'tools',
  search: { topK: COST_TOP_K },
  toolSearch: true,
};
/** `expose: 'proxy'`, always searching, with the package's own default for the definitions. */
export const PROXY_OPTIONS: RowOptions = {
  expose: 'proxy',
  search: { topK: COST_TOP_K },
  toolSearch: true,
};

/** One adapter row: its key, its label, and its options (`undefined`: the package's defaults). */
export interface AdapterRowSpec {
  key: string;
  label: string;
  options: RowOptions | undefined;
}

/** How the script should expect a row to expose tools. */
export function exposureOf(options: RowOptions | undefined): Exposure {
  return options?.expose ?? 'default';
}

/**
 * An adapter's options: its own (the tools, say) with the row's on top; the package's defaults
 * are its own alone.
 */
export function adapterOptions<T extends object>(own: T, options: RowOptions | undefined): T {
  return options === undefined ? own : { ...own, ...options };
}

/** More model calls than any turn of a plan makes: the loop's own step limit never ends a turn. */
export function maxTurnSteps(plan: readonly unknown[]): number {
  return plan.length + 2;
}
