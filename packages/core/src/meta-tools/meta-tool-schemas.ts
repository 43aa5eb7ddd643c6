import { z } from 'zod';
import type { AutoLoadActivation } from '../state/context-state';
import type { ArgumentProblem } from './argument-check';
import type { ToolDefinition } from './meta-tool-types';

/** The most results one `search_tools` call may ask for. */
export const MAX_SEARCH_LIMIT = 50;

// The tool descriptions say what each argument is: a parameter description would be sent, and
// paid for, with every request of every conversation.

/** Input of `search_tools`. */
export const searchToolsInput = z.object({
  query: z.string(),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
});
/** What the model passes to `search_tools`. */
export type SearchToolsInput = z.infer<typeof searchToolsInput>;

/** One result of `search_tools`, in the shape Mastra's processor answers with. */
export interface SearchToolsResult {
  name: string;
  description: string;
  score: number;
}

/**
 * Output of `search_tools`. A search that finds nothing says `No tools found`; under autoLoad the
 * results are only tools that may be loaded, and `activation` lists the tools now loaded.
 */
export interface SearchToolsOutput {
  results: SearchToolsResult[];
  message: string;
  /** `false` when the call itself was malformed (the message names the argument); else absent. */
  success?: false;
  /**
   * Under autoLoad: the receipt of the tools this search left loaded (new or already loaded),
   * which is what `storage: 'context'` replays; a search without it loaded nothing.
   */
  activation?: AutoLoadActivation;
  /** Under autoLoad with a budget: tools evicted to make room. */
  evicted?: string[];
  /**
   * Under `expose: 'proxy'`: the definitions of the best results (`search.definitions` of them),
   * which `call_tool` runs without a `load_tool` first; under autoLoad, of the tools now loaded.
   */
  tools?: ToolDefinition[];
}

/** Input of `load_tool`: one name, several, or both. */
export const loadToolInput = z.object({
  toolName: z.string().optional(),
  toolNames: z.array(z.string()).optional(),
});
/** What the model passes to `load_tool`. */
export type LoadToolInput = z.infer<typeof loadToolInput>;

/**
 * Output of `load_tool`, in Mastra's shapes: a single `toolName` answers
 * `{ success, message, toolName, loaded }` (the message says `loaded successfully`,
 * `already loaded` or `not found`); `toolNames` answers with the lists. Names in `toolName` (on
 * success), `loaded` and `alreadyLoaded` are tool ids, the names to call, also when the model
 * asked by key.
 */
export interface LoadToolOutput {
  success: boolean;
  message: string;
  toolName?: string;
  loadedCount?: number;
  /** Single-tool form: the tool, now loaded (new or not); list form: the newly loaded tools. */
  loaded?: string[];
  alreadyLoaded?: string[];
  notFound?: string[];
  /** Tools evicted to stay within `maxLoadedTools`. */
  evicted?: string[];
  /**
   * Under `expose: 'proxy'`: the definitions of the tools this call left loaded (new and already
   * loaded), which the model calls through `call_tool`.
   */
  tools?: ToolDefinition[];
}

/** Input of `unload_tool`. */
export const unloadToolInput = z.object({
  toolNames: z.array(z.string()).min(1).describe('Names of loaded tools you no longer need'),
});
/** What the model passes to `unload_tool`. */
export type UnloadToolInput = z.infer<typeof unloadToolInput>;

/** Output of `unload_tool`. */
export interface UnloadToolOutput {
  success: boolean;
  message: string;
  unloaded: string[];
  notLoaded?: string[];
}

/** Input of `call_tool` (`expose: 'proxy'`). */
export const callToolInput = z.object({
  name: z.string(),
  arguments: z.looseObject({}).optional(),
});
/** What the model passes to `call_tool`. */
export type CallToolInput = z.infer<typeof callToolInput>;

/** `call_tool`'s answer when it did not run the tool. */
export interface CallToolRefusal {
  success: false;
  /** What was wrong and what to do instead. */
  message: string;
  /** The name asked for, as the model wrote it (cut when long). */
  toolName?: string;
  /** Where the arguments break the tool's input schema. */
  errors?: ArgumentProblem[];
  /** The tool's definition, when the model had not loaded it (and it is not too large to repeat). */
  tools?: ToolDefinition[];
}

/**
 * What a `call_tool` call came to: the tool ran (its own result, whatever the framework made of
 * it), or it was refused and never ran.
 */
export type CallToolOutcome =
  | { status: 'ran'; toolName: string; result: unknown }
  | { status: 'refused'; output: CallToolRefusal };
