import { encode } from 'gpt-tokenizer';
import type { JSONSchema } from 'tool-search-core';

/** A tool as a model API receives it (OpenAI's function-tool shape). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JSONSchema;
}

/**
 * Counts the tokens of tool definitions as they are sent to a model: the JSON of OpenAI-style
 * function tools, encoded with the o200k_base tokenizer (GPT-4o and later) from `gpt-tokenizer`.
 */
export function countToolTokens(definitions: readonly ToolDefinition[]): number {
  const payload = definitions.map((definition) => ({ type: 'function', function: definition }));
  return encode(JSON.stringify(payload)).length;
}
