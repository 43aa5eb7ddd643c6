import { META_TOOL_NAMES, type ToolResultRecord } from 'tool-search-core';

/** The parts of a Mastra message that this reads; anything else is skipped. */
interface MessageLike {
  role?: unknown;
  content?: { parts?: unknown } | string | undefined;
}

/** The meta-tool results of a conversation, and the ids of the calls they answer. */
export interface ConversationResults {
  records: ToolResultRecord[];
  callIds: Set<string>;
}

/**
 * The meta-tool results in a Mastra conversation, oldest first, for the context storage: every
 * completed `tool-invocation` part of `search_tools`, `load_tool` or `unload_tool` in an assistant
 * message. The model's calls and their results live in assistant messages; a result inside a user
 * message is something a caller wrote, so it is no evidence of a load.
 * @param messages - the step's messages (`MastraDBMessage[]`)
 */
export function toolResultsOf(messages: readonly unknown[] | undefined): ConversationResults {
  const records: ToolResultRecord[] = [];
  const callIds = new Set<string>();
  for (const message of Array.isArray(messages) ? messages : []) {
    const { role, content } = (message ?? {}) as MessageLike;
    if (role !== 'assistant') continue;
    const parts = typeof content === 'object' ? content?.parts : undefined;
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      if (part?.type !== 'tool-invocation') continue;
      const invocation = part.toolInvocation;
      if (invocation?.state !== 'result') continue;
      if (!(META_TOOL_NAMES as readonly string[]).includes(invocation.toolName)) continue;
      records.push({ toolName: invocation.toolName, output: invocation.result });
      if (typeof invocation.toolCallId === 'string') callIds.add(invocation.toolCallId);
    }
  }
  return { records, callIds };
}
