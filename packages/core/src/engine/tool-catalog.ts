import { RESERVED_TOOL_NAMES } from '../meta-tools/meta-tool-names';
import type { ToolDescriptor } from '../search/tool-descriptor';

/** A catalog tool with the descriptor it is indexed by. */
export interface CatalogEntry<TTool> {
  /** The key the framework lists the tool under; the model may load the tool by it too. */
  key: string;
  tool: TTool;
  /** Its `id` is the tool's name: search shows it, the filter is asked with it, the model calls it. */
  descriptor: ToolDescriptor;
}

/**
 * The tools of a catalog by id, each also reachable by the key it is listed under when that key
 * differs (Mastra's `tools: { weather: getWeatherTool }` with id `get-weather`). Construction
 * guarantees every name, id or key, resolves to one tool.
 */
export class ToolCatalog<TTool> extends Map<string, CatalogEntry<TTool>> {
  /** Keys that differ from their tool's id, to that id. */
  readonly #keys = new Map<string, string>();

  /**
   * The id a name stands for in this catalog: the name itself when it is an id, else the id of the
   * tool listed under that key.
   * @param name - an id or a key, as the model wrote it
   */
  idOf(name: string): string | undefined {
    return this.has(name) ? name : this.#keys.get(name);
  }

  /** @internal Adds an entry, checking it against those already added; throws on a conflict. */
  add(entry: CatalogEntry<TTool>, label: string): void {
    const { key } = entry;
    const id = entry.descriptor.id;
    const reserved = RESERVED_TOOL_NAMES as readonly string[];
    if (reserved.includes(key) || reserved.includes(id)) {
      throw new Error(
        `ToolSearchEngine: the tool under key "${key}" (id "${id}") in ${label} uses one of the reserved meta-tool names (${reserved.join(', ')}); rename it.`,
      );
    }
    const previous = this.get(id);
    if (previous && previous.tool === entry.tool) {
      // The same tool listed twice: its second key is one more name for it.
      this.#addKey(key, id, previous, label);
      return;
    }
    if (previous) {
      throw new Error(
        `ToolSearchEngine requires unique tool ids: the tools under keys "${previous.key}" and "${key}" in ${label} share the id "${id}". ` +
          'Rename one of them; the model loads tools by id.',
      );
    }
    const keyOwner = this.#keys.get(id);
    if (keyOwner !== undefined) {
      throw ambiguous(id, this.get(keyOwner)!, entry, label);
    }
    this.#addKey(key, id, entry, label);
    this.set(id, entry);
  }

  #addKey(key: string, id: string, entry: CatalogEntry<TTool>, label: string): void {
    if (key === id) return;
    const idOwner = this.get(key);
    if (idOwner) throw ambiguous(key, entry, idOwner, label);
    this.#keys.set(key, id);
  }
}

/** The error for a name that is one tool's key and another tool's id. */
function ambiguous<TTool>(
  name: string,
  keyed: CatalogEntry<TTool>,
  identified: CatalogEntry<TTool>,
  label: string,
): Error {
  return new Error(
    `ToolSearchEngine: "${name}" in ${label} is the key of the tool with id "${keyed.descriptor.id}" and the id of the tool under key "${identified.key}". ` +
      'Tool keys and ids must resolve unambiguously, since the model may load a tool by either; rename one of them.',
  );
}

/**
 * Builds a catalog from a record of framework tools. A tool without an id, a reserved name, a
 * duplicate id or an ambiguous key/id throws, or is skipped and passed to `skip` when given.
 */
export function buildCatalog<TTool>(
  tools: Readonly<Record<string, TTool>>,
  describe: (tool: TTool, key: string) => ToolDescriptor,
  label: string,
  skip?: (error: Error) => void,
): ToolCatalog<TTool> {
  const catalog = new ToolCatalog<TTool>();
  for (const [key, tool] of Object.entries(tools)) {
    try {
      catalog.add(describeEntry(tool, key, describe, label), label);
    } catch (error) {
      if (!skip) throw error;
      skip(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return catalog;
}

function describeEntry<TTool>(
  tool: TTool,
  key: string,
  describe: (tool: TTool, key: string) => ToolDescriptor,
  label: string,
): CatalogEntry<TTool> {
  const descriptor = describe(tool, key);
  if (!descriptor || typeof descriptor.id !== 'string' || descriptor.id.trim() === '') {
    throw new TypeError(`ToolSearchEngine: the tool under key "${key}" in ${label} has no id`);
  }
  return { key, tool, descriptor };
}

/**
 * The id a name stands for in a catalog (see {@link ToolCatalog.idOf}); a plain map knows ids only.
 * @param catalog - the static catalog or a request's
 * @param name - an id or a key
 */
export function idIn<TTool>(
  catalog: ReadonlyMap<string, CatalogEntry<TTool>>,
  name: string,
): string | undefined {
  if (catalog instanceof ToolCatalog) return catalog.idOf(name);
  return catalog.has(name) ? name : undefined;
}
