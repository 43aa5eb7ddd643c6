import type { z } from 'zod';
import type { JSONSchema } from '../search/tool-descriptor';
import type { FilterPhase } from './filter-phase';

// The types the meta-tools share with the engine above them; `engine/types.ts` re-exports them.

/** Why a tool was refused. */
export type DenialReason =
  | 'filter'
  | 'filter-error'
  | 'filter-timeout'
  | 'unknown-tool'
  | 'not-active'
  | 'resolve-error';

/** Events for telemetry. A handler that throws is ignored. */
export interface ToolSearchEvents {
  /** After each search: what was asked, what came back, and the query words nothing matched. */
  onSearch?: (event: {
    threadId: string | undefined;
    query: string;
    results: { name: string; score: number }[];
    unmatchedTerms: string[];
  }) => void;
  /** Tools newly activated, by `load_tool` or by `search_tools` under autoLoad. */
  onLoad?: (event: {
    threadId: string | undefined;
    toolNames: string[];
    via: 'load_tool' | 'search_tools' | 'call_tool' | 'preselect';
  }) => void;
  /** A tool refused: to the model it looks unknown; this says which it was. */
  onDenied?: (event: {
    threadId: string | undefined;
    toolName: string;
    phase: FilterPhase | 'execute';
    reason: DenialReason;
  }) => void;
  /** Tools dropped to stay within `maxLoadedTools`, or by `unload_tool`. */
  onEvict?: (event: {
    threadId: string | undefined;
    toolNames: string[];
    reason: 'budget' | 'unload';
  }) => void;
  /** A store or filter failure that was answered gracefully. */
  onError?: (event: { threadId: string | undefined; operation: string; error: unknown }) => void;
}

/** How loaded tools reach the model: as tools of their own, or through `call_tool`. */
export type ExposeMode = 'tools' | 'proxy';

/** One `call_tool` run, as the engine's `runTool` option receives it. */
export interface ToolRun<TTool, TContext = unknown> {
  /** The tool's id: the name the model called it by. */
  id: string;
  /** The key the tool is listed under in its catalog. */
  key: string;
  tool: TTool;
  /** The arguments, checked against the tool's input schema. */
  arguments: Record<string, unknown>;
  requestContext: TContext | undefined;
  threadId: string | undefined;
  /**
   * What the adapter passed as `call_tool`'s second `execute` argument: the framework's options
   * of this call (its id, abort signal, config...), handed through untouched.
   */
  callOptions: unknown;
}

/** A tool as `load_tool` shows it under `expose: 'proxy'`: what the model needs to call it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JSONSchema;
}

/** A meta-tool, framework-neutral: adapters wrap it in their framework's tool type. */
export interface MetaTool<TInput = unknown, TOutput = unknown> {
  name: string;
  /** Written for the model. */
  description: string;
  inputSchema: z.ZodType<TInput>;
  /**
   * Runs the meta-tool. Bad input, refusals and the engine's own failures (a store) are answered
   * in the output's `message`. It throws only the application's own errors: what the tool
   * `call_tool` ran threw, a `deferredTools` source that fails or lists a duplicate, and a
   * deferred tool's `resolve` that fails when `load_tool` asks for it.
   * @param input - the model's arguments
   * @param callOptions - the framework's options of this call, handed to `runTool` by `call_tool`
   */
  execute: (input: unknown, callOptions?: unknown) => Promise<TOutput>;
}
