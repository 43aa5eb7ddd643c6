/**
 * Builds a record of tools keyed by name with own, enumerable properties, so a tool named
 * `__proto__`, `constructor` or `toString` is stored as a tool and never changes the record's
 * prototype (plain `record[name] = tool` and `Object.assign` would).
 *
 * @param entries - `[name, tool]` pairs; a later pair replaces an earlier one
 * @returns a plain object
 * @example
 * const tools = toToolRecord(active.map(({ id, tool }) => [id, tool]));
 */
export function toToolRecord<TTool>(
  entries: Iterable<readonly [string, TTool]>,
): Record<string, TTool> {
  const record: Record<string, TTool> = {};
  for (const [name, tool] of entries) {
    Object.defineProperty(record, name, {
      value: tool,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}
