import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { META_TOOL_NAMES, type ToolResultRecord } from 'tool-search-core';

const META_NAMES: ReadonlySet<string> = new Set(META_TOOL_NAMES);

/**
 * The meta-tool results of a conversation, in order, in the shape `storage: 'context'` replays:
 * each successful `ToolMessage` of `search_tools`, `load_tool` or `unload_tool` with its JSON
 * content. A message without a `name` is matched to its call through `tool_call_id`.
 * @param messages - the agent's messages (its state), oldest first
 */
export function toolResultsFromMessages(messages: readonly BaseMessage[]): ToolResultRecord[] {
  const callNames = new Map<string, string>();
  const records: ToolResultRecord[] = [];
  for (const message of messages) {
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) if (call.id) callNames.set(call.id, call.name);
      continue;
    }
    if (!ToolMessage.isInstance(message) || message.status === 'error') continue;
    const toolName = message.name ?? callNames.get(message.tool_call_id);
    if (toolName === undefined || !META_NAMES.has(toolName)) continue;
    records.push({ toolName, output: message.text });
  }
  return records;
}
