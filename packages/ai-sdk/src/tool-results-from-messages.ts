import type { ToolResultRecord } from 'tool-search-core';

/**
 * Collects the tool results of AI SDK model messages, in conversation order, in the shape the
 * core's context storage reads. Failed results (`error-text`, `error-json`, denied) are skipped.
 * @param messages - model messages (`prepareStep`'s or a tool's `messages`)
 */
export function toolResultsFromMessages(
  messages: readonly unknown[] | undefined,
): ToolResultRecord[] {
  const records: ToolResultRecord[] = [];
  for (const message of messages ?? []) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'tool' || !Array.isArray(content)) continue;
    for (const part of content as Record<string, unknown>[]) {
      if (part?.type !== 'tool-result' || typeof part.toolName !== 'string') continue;
      const output = outputOf(part.output ?? part.result);
      if (output !== undefined) records.push({ toolName: part.toolName, output });
    }
  }
  return records;
}

/** ai 5+ wraps outputs as `{ type: 'json' | 'text', value }`; older messages hold the bare value. */
function outputOf(output: unknown): unknown {
  if (output === null || typeof output !== 'object' || !('type' in output)) return output;
  const { type, value } = output as { type: unknown; value?: unknown };
  return type === 'json' || type === 'text' ? value : undefined;
}
