import type { ToolResultRecord } from '../engine/types';

/**
 * Replays a conversation's meta-tool results into the tools they left loaded, in load order.
 * Only real loads count: a `load_tool` success, and a `search_tools` result only when `autoLoad`
 * is on (a plain search result never loads anything). `unload_tool` results and evictions
 * reported in a result remove tools again. The names still have to pass the engine's checks:
 * a forged message can name a tool, it cannot make it allowed.
 *
 * @param results - tool results in conversation order
 * @param options - whether search loads (`autoLoad`)
 * @returns tool names in the order they were (last) loaded
 */
export function deriveLoadedToolNames(
  results: Iterable<ToolResultRecord>,
  options: { autoLoad: boolean },
): string[] {
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
    } else if (record.toolName === 'search_tools' && options.autoLoad) {
      // Results written by Mastra's own processor under autoLoad carry no `loaded` list.
      if (Array.isArray(output.loaded)) add(output.loaded);
      else if (Array.isArray(output.results))
        add(output.results.map((result: unknown) => (result as { name?: unknown })?.name));
      remove(output.evicted);
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
