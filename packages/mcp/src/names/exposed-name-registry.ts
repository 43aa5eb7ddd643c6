import { MAX_EXPOSED_NAME_LENGTH, toExposedName } from './exposed-name';

/**
 * Exposed names for the gateway's whole life: a tool keeps the name it was first given, and a
 * name once given never goes to another tool, even after its tool has gone. A tool that arrives
 * later and maps to a taken name gets the next free suffix (`_2`, `_3`...). So a name a session
 * loaded can never start pointing at another server's tool.
 */
export class ExposedNameRegistry {
  /** Name per tool, keyed by server, tool name and occurrence (a list may repeat a name). */
  readonly #names = new Map<string, string>();
  readonly #taken = new Set<string>();
  /** The next suffix to try per base name (see `assignExposedNames`: linear time for repeats). */
  readonly #nextSuffix = new Map<string, number>();

  /** Names ever given. */
  get size(): number {
    return this.#taken.size;
  }

  /**
   * The exposed name of an upstream tool, given now if it has none yet.
   * @param server - the server's name in `mcpServers`
   * @param tool - the tool's own name
   * @param occurrence - 0 for its first listing in the server's list, 1 for a repeat...
   */
  nameOf(server: string, tool: string, occurrence = 0): string {
    const key = `${server}\u0000${tool}\u0000${occurrence}`;
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    const base = toExposedName(server, tool);
    let name = base;
    if (this.#taken.has(name)) {
      let suffix = this.#nextSuffix.get(base) ?? 2;
      for (; ; suffix++) {
        const tail = `_${suffix}`;
        name = `${base.slice(0, MAX_EXPOSED_NAME_LENGTH - tail.length)}${tail}`;
        if (!this.#taken.has(name)) break;
      }
      this.#nextSuffix.set(base, suffix + 1);
    }
    this.#taken.add(name);
    this.#names.set(key, name);
    return name;
  }
}
