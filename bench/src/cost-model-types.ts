/**
 * The scripted model's contract with the rows of `bench:cost`: what it is shown on a call, what it
 * answers, how a row exposes catalog tools, and what a conversation counts.
 */
import type { SeenResult } from './cost-search-answer';

/**
 * How the model reaches catalog tools in a row. `'native'`: the provider's deferred loading, where
 * a search's result is itself the load. `'default'`: whatever the adapter does without options.
 */
export type Exposure = 'every-tool' | 'tools' | 'proxy' | 'native' | 'default';

/** What the model is shown on a call. */
export interface ModelView {
  toolNames: readonly string[];
  /** Tool results in the prompt, oldest first. */
  results: readonly SeenResult[];
}

/** The model's move on a call. */
export type ModelAction =
  | { toolName: string; input: Record<string, unknown>; id: string }
  | { text: string };

/** What a conversation did, besides its requests. */
export interface ConversationTally {
  /** `search_tools` answers the model read, and how many of them listed no tool. */
  searches: number;
  emptySearches: number;
  /** Tool uses whose first search did not show the tool: the model searched again by name. */
  searchMisses: number;
  /** Of those, the ones the second search missed too: loaded by name. */
  namedLoads: number;
  /** Tools the conversation got (loaded, or called at once). */
  loads: number;
  /** Tool uses that could not get their tool. */
  missedLoads: number;
  /** Tool uses called at once from a search answer's definition, without `load_tool`. */
  definitionCalls: number;
  /** Catalog tool calls, and how many of them had arguments the schema accepts. */
  calls: number;
  validCalls: number;
  /** Tool uses measured, and their requests from the first step that needed the tool to its call. */
  toolUses: number;
  useRequests: number;
}

/** A tally with nothing counted yet. */
export function emptyTally(): ConversationTally {
  return {
    searches: 0,
    emptySearches: 0,
    searchMisses: 0,
    namedLoads: 0,
    loads: 0,
    missedLoads: 0,
    definitionCalls: 0,
    calls: 0,
    validCalls: 0,
    toolUses: 0,
    useRequests: 0,
  };
}
