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

/** A catalog tool's result: `{ status, tool }` (minimal content), or an MCP tool's result. */
export type CatalogToolResult =
  | { status: string; tool: string }
  | { content: { type: 'text'; text: string }[] };

/**
 * What a catalog tool returns in every framework. Without `text` (minimal content), the small
 * object the script has always used; with it, what an MCP tool returns (`CallToolResult`), which
 * each framework serializes as it serializes any object (the gateway's upstream sends the text).
 * @param id - the tool's data id
 * @param text - the real output to return
 */
export function catalogToolResult(id: string, text?: string): CatalogToolResult {
  return text === undefined ? { status: 'done', tool: id } : { content: [{ type: 'text', text }] };
}

/**
 * The results of a prepared row's catalog tools: the row's tools are built once per catalog and
 * answer from the conversation being played, whose last call names the step (and so the text).
 */
export class CatalogResults {
  #conversation: ScriptedConversation | undefined;

  /** Sets the conversation the row plays now. */
  play(conversation: ScriptedConversation): void {
    this.#conversation = conversation;
  }

  /** What the catalog tool `id` returns for the call being run. */
  result(id: string): CatalogToolResult {
    return catalogToolResult(id, this.#conversation?.currentToolResult());
  }
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
    const turnStart = this.#conversation.takeTurnStart();
    const action = this.#conversation.act(view);
    this.steps.push({
      request: tokenized,
      outputTokens: this.#tokenizer.outputTokens(toContent(action)),
      turnStart,
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
