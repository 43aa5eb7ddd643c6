/**
 * What every recording model shares: the system prompt of every row, the recorder that tokenizes
 * each request as the model receives it, and the tool results a catalog tool answers with.
 */
import type { PricedStep } from './cost-pricing';
import type { BlockTokenizer, ContentBlock, ModelRequest, TokenizedRequest } from './cost-request';
import type { ModelAction, ModelView, ScriptedConversation } from './cost-script';

/** The application's own system prompt, the same in every row. */
export const SYSTEM_PROMPT =
  'You are a helpful assistant. Use the tools you are given to answer the user; say so when none fits.';

/** What a catalog tool returns in every framework (an object; the gateway's upstream sends its JSON). */
export function catalogToolResult(id: string): { status: string; tool: string } {
  return { status: 'done', tool: id };
}

/** Records a conversation's requests, tokenized, with the tokens of the model's answer to each. */
export class ConversationRecorder {
  readonly steps: PricedStep[] = [];
  readonly #tokenizer: BlockTokenizer;
  readonly #conversation: ScriptedConversation;

  constructor(tokenizer: BlockTokenizer, conversation: ScriptedConversation) {
    this.#tokenizer = tokenizer;
    this.#conversation = conversation;
  }

  /** Records what the model was sent and returns its move. */
  respond(request: ModelRequest, view: ModelView): ModelAction {
    const tokenized: TokenizedRequest = this.#tokenizer.request(request);
    const action = this.#conversation.act(view);
    this.steps.push({
      request: tokenized,
      outputTokens: this.#tokenizer.outputTokens(toContent(action)),
    });
    return action;
  }
}

/** A model action as the assistant message's content. */
export function toContent(action: ModelAction): ContentBlock[] {
  return 'text' in action
    ? [{ type: 'text', text: action.text }]
    : [{ type: 'tool_use', id: action.id, name: action.toolName, input: action.input }];
}
