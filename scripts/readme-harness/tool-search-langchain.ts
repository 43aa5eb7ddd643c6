// Supplies what the tool-search-langchain README's main snippet declares (`model`), so the smoke
// test runs the snippet offline: langchain's own fakeModel(), scripted by agent-script.ts.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { type CallRecord, nextMove, type SeenResult, verifyCalls } from './agent-script.ts';

/** More replies than the script needs: search, load, call, answer. */
const MAX_REPLIES = 8;

const calls: CallRecord[] = [];
const scripted = fakeModel();
let boundNames: string[] = [];

// createAgent binds the step's tools before each call: remember their names for verify().
const bindTools = scripted.bindTools.bind(scripted);
scripted.bindTools = (tools) => {
  boundNames = tools.map((bound) => String((bound as { name?: unknown }).name));
  return bindTools(tools);
};

for (let reply = 0; reply < MAX_REPLIES; reply++) {
  scripted.respond((messages: BaseMessage[]) => {
    const seen: SeenResult[] = messages
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => ({ toolName: String(message.name), output: message.text }));
    const move = nextMove(seen, boundNames);
    calls.push({ tools: boundNames, move });
    const id = `reply-${calls.length}`;
    return 'toolName' in move
      ? new AIMessage({
          id,
          content: '',
          tool_calls: [
            { id: `${id}-call`, name: move.toolName, args: move.input, type: 'tool_call' },
          ],
        })
      : new AIMessage({ id, content: move.text });
  });
}

export const model: BaseChatModel = scripted;

/** Runs after the snippet: throws unless the agent was given its small catalog directly and called it. */
export function verify(): void {
  // The snippet's catalog is its two tools: under the `toolSearch: 'auto'` threshold, so given
  // directly (with hundreds, the agent would search).
  verifyCalls(calls, 'direct');
}
