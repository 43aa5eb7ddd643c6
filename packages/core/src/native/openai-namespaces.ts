import type { ToolDescriptor } from '../search/tool-descriptor';

/** A group of tools the Responses API lists as one namespace: its name and what it holds. */
export interface OpenAINamespace {
  /** Letters, digits, `_` and `-`, as OpenAI takes tool names. */
  name: string;
  /** Shown to the model before any tool of the namespace is loaded: say what the group does. */
  description: string;
}

/** Options of {@link assignNamespaces}. */
export interface NamespaceOptions {
  /**
   * The group of a tool (its MCP server, its service), or `undefined` to list it as a top-level
   * deferred function. Without it every tool is top-level.
   */
  group?: ((tool: ToolDescriptor) => OpenAINamespace | undefined) | undefined;
  /**
   * Tools per namespace at most: a larger group is split, in catalog order, into namespaces
   * `<name>`, `<name>_2`, ... whose descriptions say which part they are.
   * @default 9
   */
  maxNamespaceTools?: number | undefined;
}

/**
 * OpenAI's tool search guide: "aim to keep each namespace to fewer than 10 functions for better
 * token efficiency and model performance".
 */
export const DEFAULT_MAX_NAMESPACE_TOOLS = 9;

const NAMESPACE_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The namespace of each grouped tool, by tool id. Computed over every tool a request may know,
 * whatever the filter says, so that a tool's namespace stays the same from request to request;
 * a request then lists each namespace with the tools it may search.
 * @param tools - the tools, in catalog order
 * @param options - `group` and `maxNamespaceTools`
 * @throws a `TypeError` for a bad namespace name, a name given two descriptions, or a split that
 *   takes the name of another group
 */
export function assignNamespaces(
  tools: readonly ToolDescriptor[],
  options: NamespaceOptions,
): Map<string, OpenAINamespace> {
  const assigned = new Map<string, OpenAINamespace>();
  const { group } = options;
  if (!group) return assigned;
  const max = options.maxNamespaceTools ?? DEFAULT_MAX_NAMESPACE_TOOLS;
  if (!(Number.isInteger(max) && max >= 1) && max !== Number.POSITIVE_INFINITY) {
    throw new RangeError(`maxNamespaceTools must be an integer >= 1, got ${max}`);
  }
  const groups = new Map<string, { namespace: OpenAINamespace; ids: string[] }>();
  for (const tool of tools) {
    const namespace = group(tool);
    if (namespace === undefined) continue;
    if (typeof namespace?.name !== 'string' || !NAMESPACE_NAME.test(namespace.name)) {
      throw new TypeError(
        `group() gave the tool "${tool.id}" the namespace name ${JSON.stringify(namespace?.name)}; use letters, digits, "_" and "-"`,
      );
    }
    const known = groups.get(namespace.name);
    if (known && known.namespace.description !== namespace.description) {
      throw new TypeError(
        `group() gave the namespace "${namespace.name}" two descriptions; give each namespace one`,
      );
    }
    if (known) known.ids.push(tool.id);
    else groups.set(namespace.name, { namespace: { ...namespace }, ids: [tool.id] });
  }
  for (const { namespace, ids } of groups.values()) {
    const parts = Math.ceil(ids.length / max);
    for (let part = 0; part < parts; part++) {
      const name = part === 0 ? namespace.name : `${namespace.name}_${part + 1}`;
      if (part > 0 && groups.has(name)) {
        throw new TypeError(
          `the namespace "${namespace.name}" has ${ids.length} tools and is split, but "${name}" is another group's name; rename that group or raise maxNamespaceTools`,
        );
      }
      const piece: OpenAINamespace = {
        name,
        description:
          parts > 1
            ? `${namespace.description} (part ${part + 1} of ${parts})`
            : namespace.description,
      };
      for (const id of ids.slice(part * max, (part + 1) * max)) assigned.set(id, piece);
    }
  }
  return assigned;
}
