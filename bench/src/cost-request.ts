/**
 * A model request in the provider's prefix order, whatever framework sent it: the tool
 * definitions, then the system prompt, then the messages (Anthropic renders its prompt as tools,
 * system, messages; OpenAI's prompt likewise starts with the tools and instructions). Each
 * framework's recording model turns what it was sent into a {@link ModelRequest}; the pricing model
 * reads it as a list of blocks, each tokenized once.
 */
import { encode } from 'gpt-tokenizer';

/** A tool definition as a provider receives it. */
export interface ToolDefinition {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
}

/**
 * One content block of a message. `tool_definition` is a deferred tool's definition as a
 * provider-native search loads it into the conversation (Anthropic expands a `tool_reference`
 * there; OpenAI reads the definitions of a `tool_search_output` there): it is tokenized exactly as
 * the same tool among the request's tools would be.
 */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; content: string }
  | { type: 'tool_definition'; tool: ToolDefinition };

/** A message; tool results travel in user messages, as in Anthropic's Messages API. */
export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/** What the model was sent on one call. */
export interface ModelRequest {
  tools: ToolDefinition[];
  /** The system prompt (several system messages joined by a blank line); empty for none. */
  system: string;
  messages: ConversationMessage[];
}

/** A block of text, tokenized once: `key` is the same for the same text. */
export interface TokenizedBlock {
  key: number;
  tokens: readonly number[];
}

/** A request as the pricing model reads it: blocks in prefix order. */
export interface TokenizedRequest {
  blocks: readonly TokenizedBlock[];
  /** How many of the first blocks are tool definitions. */
  toolBlocks: number;
  /** How many blocks after the tools are the system prompt (0 or 1). */
  systemBlocks: number;
}

/**
 * Tokenizes blocks with o200k_base (`gpt-tokenizer`, the encoding of GPT-4o and later), keeping one
 * entry per distinct text: a conversation resends the same tool definitions and messages on every
 * step. Anthropic publishes no tokenizer; o200k_base stands in for it (Claude's counts for the same
 * text differ by a model-dependent factor, the same for every row of a table).
 */
export class BlockTokenizer {
  readonly #blocks = new Map<string, TokenizedBlock>();

  /** The block for a text. */
  block(text: string): TokenizedBlock {
    let block = this.#blocks.get(text);
    if (block === undefined) {
      block = { key: this.#blocks.size, tokens: encode(text) };
      this.#blocks.set(text, block);
    }
    return block;
  }

  /** A request's blocks: one per tool, one for the system prompt, one per message content block. */
  request(request: ModelRequest): TokenizedRequest {
    const blocks = request.tools.map((tool) => this.block(serializeTool(tool)));
    const toolBlocks = blocks.length;
    if (request.system !== '') blocks.push(this.block(request.system));
    const systemBlocks = blocks.length - toolBlocks;
    for (const message of request.messages) {
      for (const content of message.content) {
        blocks.push(
          this.block(
            content.type === 'tool_definition'
              ? serializeTool(content.tool)
              : JSON.stringify({ role: message.role, ...content }),
          ),
        );
      }
    }
    return { blocks, toolBlocks, systemBlocks };
  }

  /** Tokens of the blocks a model answer adds (what it outputs). */
  outputTokens(content: readonly ContentBlock[]): number {
    let total = 0;
    for (const block of content) {
      total += this.block(JSON.stringify({ role: 'assistant', ...block })).tokens.length;
    }
    return total;
  }
}

/**
 * A tool definition as the provider's JSON (Anthropic's `input_schema` naming); without an input
 * schema, its name and description only.
 */
function serializeTool(tool: ToolDefinition): string {
  return JSON.stringify({
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    input_schema: tool.inputSchema,
  });
}

/** Tokens of a request. */
export function requestTokens(request: TokenizedRequest): number {
  let total = 0;
  for (const block of request.blocks) total += block.tokens.length;
  return total;
}
