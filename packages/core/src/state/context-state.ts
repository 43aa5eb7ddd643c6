import type { ToolResultRecord } from '../engine/types';

/** The `type` of the activation receipt a `search_tools` result carries when it loaded tools (autoLoad). */
export const AUTO_LOAD_ACTIVATION_TYPE = 'tool-search-auto-load';
/** The version of that receipt's shape. */
export const AUTO_LOAD_ACTIVATION_VERSION = 1;

/** The receipt a `search_tools` result carries under autoLoad: the tools this search left loaded. */
export interface AutoLoadActivation {
  type: typeof AUTO_LOAD_ACTIVATION_TYPE;
  version: typeof AUTO_LOAD_ACTIVATION_VERSION;
  loaded: string[];
}

/**
 * Replays a conversation's meta-tool results into the tools they left loaded, in load order.
 * Only explicit evidence counts: a `load_tool` success (its `loaded` and `alreadyLoaded` lists,
 * or the `toolName` of a single-tool success), and a `search_tools` result only through its
 * autoLoad activation receipt (a plain list of search results never loads anything, nor does a
 * receipt-less result from an older autoLoad). `unload_tool` results and the evictions a result
 * reports remove tools again. The names still have to pass the engine's checks: a forged message
 * can name a tool, it cannot make it allowed.
 *
 * @param results - tool results in conversation order; only results the model's own calls
 *   produced (an adapter skips anything a user message carries)
 * @returns tool names in the order they were (last) loaded
 */
export function deriveLoadedToolNames(results: Iterable<ToolResultRecord>): string[] {
  const loaded = new Set<string>();
  const add = (names: unknown): void => {
    for (const name of stringList(names)) {
      loaded.delete(name);
      loaded.add(name);
    }
  };
  const remove = (names: unknown): void => {
    for (const name of stringList(names)) loaded.delete(name);
  };
  for (const record of results) {
    const output = parseOutput(record.output);
    if (!output) continue;
    if (record.toolName === 'load_tool') {
      if (output.success === true && typeof output.toolName === 'string') add([output.toolName]);
      add(output.loaded);
      add(output.alreadyLoaded);
      remove(output.evicted);
    } else if (record.toolName === 'search_tools') {
      const activation = output.activation;
      if (
        isRecord(activation) &&
        activation.type === AUTO_LOAD_ACTIVATION_TYPE &&
        activation.version === AUTO_LOAD_ACTIVATION_VERSION
      ) {
        add(activation.loaded);
        remove(output.evicted);
      }
    } else if (record.toolName === 'unload_tool') {
      remove(output.unloaded);
    }
  }
  return [...loaded];
}

function parseOutput(output: unknown): Record<string, unknown> | undefined {
  let value = output;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  // Frameworks wrap tool output differently: `{ type: 'json', value }` (AI SDK), `{ result }`.
  if (isRecord(value) && value.type === 'json' && 'value' in value) value = value.value;
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
