/** A conversation's tool result, in the framework-neutral shape the context storage reads. */
export interface ToolResultRecord {
  toolName: string;
  /** The tool's output, as an object or as its JSON text. */
  output: unknown;
}

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

/** A tool a conversation left loaded. */
export interface DerivedTool {
  /** The tool's name, as the results wrote it (or as `resolve` turned it into an id). */
  name: string;
  /** The position of the last result that loaded it: the later, the more recently used. */
  lastLoadedAt: number;
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
 * @returns tool names in the order they were first loaded: loading a loaded tool again keeps
 *   its place (so the tools offered to the model keep their order), until it is removed
 */
export function deriveLoadedToolNames(results: Iterable<ToolResultRecord>): string[] {
  return deriveLoadedTools(results).map((tool) => tool.name);
}

/**
 * @internal {@link deriveLoadedToolNames} with each tool's last load, and names resolved first
 * (a tool loaded by its key and unloaded by its id is one tool).
 * @param results - tool results in conversation order
 * @param resolve - maps a name to the tool's id
 */
export function deriveLoadedTools(
  results: Iterable<ToolResultRecord>,
  resolve: (name: string) => string = (name) => name,
): DerivedTool[] {
  // Map iteration keeps insertion order: a reload updates the value and keeps the place.
  const loaded = new Map<string, number>();
  let position = 0;
  const add = (names: unknown): void => {
    for (const name of stringList(names)) loaded.set(resolve(name), position);
  };
  const remove = (names: unknown): void => {
    for (const name of stringList(names)) loaded.delete(resolve(name));
  };
  for (const record of results) {
    position++;
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
  return [...loaded].map(([name, lastLoadedAt]) => ({ name, lastLoadedAt }));
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
