/**
 * Tool names within `[A-Za-z0-9_-]`: what Mastra carries through a conversation and what
 * Anthropic's and OpenAI's APIs accept as a tool's name. The data sets' ids are not all so
 * (dev-bfcl has `math.factorial`), so the rows that need such names expose each tool under one.
 */
import type { DataTool } from './data';

/**
 * Each tool's provider-safe name, by data id: every character outside `[A-Za-z0-9_-]` becomes
 * `_`, a name left without a letter or digit becomes `tool_<n>`, and a name taken twice gets
 * `_2`, `_3`...
 * @param catalog - the data set's tools, in file order
 */
export function providerToolNames(catalog: readonly DataTool[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  catalog.forEach((data, index) => {
    let base = data.id.replace(/[^A-Za-z0-9_-]/g, '_');
    if (!/[A-Za-z0-9]/.test(base)) base = `tool_${index}`;
    let name = base;
    for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
    taken.add(name);
    names.set(data.id, name);
  });
  return names;
}
