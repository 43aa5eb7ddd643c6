// Hand-written provider responses of the documented shapes, typed by the SDKs' own types: the
// Messages API's `Message` and the Responses API's `Response` (without `output_text`, which the
// SDK computes; the API does not send it).
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';

type AnthropicBlock = Anthropic.Messages.ContentBlock;
type OpenAIItem = OpenAI.Responses.ResponseOutputItem;

/** A Responses API response body. */
export type OpenAIResponseBody = Omit<OpenAI.Responses.Response, 'output_text'>;

/** A Messages API response: `tool_use` when a block calls a tool, else `end_turn`. */
export function anthropicMessage(content: AnthropicBlock[]): Anthropic.Messages.Message {
  return {
    id: `msg_${content.length}_${content[0]?.type ?? 'empty'}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 1200,
      output_tokens: 40,
      cache_creation: null,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1100,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    },
  };
}

/** A `tool_use` block, called directly by the model. */
export function anthropicToolUse(id: string, name: string, input: unknown): AnthropicBlock {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } };
}

/** A `text` block. */
export function anthropicText(text: string): AnthropicBlock {
  return { type: 'text', text, citations: null };
}

/** A Responses API response holding these output items. */
export function openaiResponse(id: string, output: OpenAIItem[]): OpenAIResponseBody {
  return {
    id,
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    model: 'gpt-5.4',
    output,
    access_programs: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: {
      input_tokens: 900,
      input_tokens_details: { cached_tokens: 800, cache_write_tokens: 0 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 930,
    },
  };
}

/** A `tool_search_call` the client is to answer. */
export function openaiSearchCall(callId: string, query: string): OpenAIItem {
  return {
    type: 'tool_search_call',
    id: `ts_${callId}`,
    call_id: callId,
    execution: 'client',
    status: 'completed',
    arguments: { query },
  };
}

/** A `function_call`, inside a namespace when one is given. */
export function openaiFunctionCall(
  callId: string,
  name: string,
  args: unknown,
  namespace?: string,
): OpenAIItem {
  return {
    type: 'function_call',
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
    ...(namespace !== undefined && { namespace }),
  };
}

/** An assistant message with one text part. */
export function openaiMessage(text: string): OpenAIItem {
  return {
    type: 'message',
    id: `msg_${text.length}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}
