import { META_TOOL_NAMES, type ToolResultRecord } from 'tool-search-core';

/** The parts of a Mastra message that this reads; anything else is skipped. */
interface MessageLike {
  content?: { parts?: unknown } | string | undefined;
}

/**
 * The meta-tool results in a Mastra conversation, oldest first, for the context storage: every
 * completed `tool-invocation` part of `search_tools`, `load_tool` or `unload_tool`.
 * @param messages - the step's messages (`MastraDBMessage[]`)
 */
export function toolResultsOf(messages: readonly unknown[] | undefined): ToolResultRecord[] {
  const records: ToolResultRecord[] = [];
  for (const message of messages ?? []) {
    const content = (message as MessageLike | undefined)?.content;
    const parts = typeof content === 'object' ? content?.parts : undefined;
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      if (part?.type !== 'tool-invocation') continue;
      const invocation = part.toolInvocation;
      if (invocation?.state !== 'result') continue;
      if (!(META_TOOL_NAMES as readonly string[]).includes(invocation.toolName)) continue;
      records.push({ toolName: invocation.toolName, output: invocation.result });
    }
  }
  return records;
}
