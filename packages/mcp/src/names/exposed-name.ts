import { createHash } from 'node:crypto';

/** The longest tool name the gateway exposes: MCP clients and model APIs commonly reject longer names. */
export const MAX_EXPOSED_NAME_LENGTH = 128;
/** Separates the server's name from the tool's in an exposed name. */
export const EXPOSED_NAME_SEPARATOR = '__';
/** Hex digits of the hash that ends a shortened name: 32 bits, so two long names rarely share one. */
const HASH_LENGTH = 8;

/**
 * The name a client sees for an upstream tool, before collisions are settled: `<server>__<tool>`
 * with every character outside `[A-Za-z0-9_.-]` replaced by `_`. A name over
 * {@link MAX_EXPOSED_NAME_LENGTH} characters is cut and ends in `_` plus 8 hex digits of a hash of
 * the full server and tool names, so it stays unique and the same on every start.
 * @example toExposedName('github', 'create issue') // 'github__create_issue'
 */
export function toExposedName(server: string, tool: string): string {
  const name = `${server}${EXPOSED_NAME_SEPARATOR}${tool}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (name.length <= MAX_EXPOSED_NAME_LENGTH) return name;
  return `${name.slice(0, MAX_EXPOSED_NAME_LENGTH - HASH_LENGTH - 1)}_${hashOf(server, tool)}`;
}

/** An upstream tool to name. */
export interface NamedToolRef {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The tool's own name on that server. */
  tool: string;
}

/**
 * Names every upstream tool, settling collisions: when two tools map to the same name (`a b` and
 * `a_b`, or two long names cut alike), the first in order keeps it and each later one gets `_2`,
 * `_3`... (cut to stay within {@link MAX_EXPOSED_NAME_LENGTH}). Order is the config's server order,
 * then each server's own tool order, so names are the same on every start with the same tools.
 * @param tools - every upstream tool, in config order
 * @param reserved - names no tool may take (the gateway's meta-tools)
 * @returns exposed names, one per tool, in the same order
 */
export function assignExposedNames(
  tools: Iterable<NamedToolRef>,
  reserved: Iterable<string> = [],
): string[] {
  const taken = new Set(reserved);
  // The next suffix to try per base name. Taken names stay taken, so resuming where the last
  // tool of that base stopped gives the same names as counting from 2 each time, in linear
  // time: an upstream that lists one name 100,000 times would otherwise block the gateway.
  const nextSuffix = new Map<string, number>();
  const names: string[] = [];
  for (const { server, tool } of tools) {
    const base = toExposedName(server, tool);
    let name = base;
    if (taken.has(name)) {
      let suffix = nextSuffix.get(base) ?? 2;
      for (; ; suffix++) {
        const tail = `_${suffix}`;
        name = `${base.slice(0, MAX_EXPOSED_NAME_LENGTH - tail.length)}${tail}`;
        if (!taken.has(name)) break;
      }
      nextSuffix.set(base, suffix + 1);
    }
    taken.add(name);
    names.push(name);
  }
  return names;
}

function hashOf(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_LENGTH);
}
