import type { ToolDescriptor } from '../search/tool-descriptor';

/**
 * Characters per token of ASCII text: o200k_base (the tokenizer of GPT-4o and later, which the
 * cost benchmark counts with) takes 4.8 characters per token on the benchmark's English tool
 * definitions, JSON included (`pnpm --filter bench bench:tool-weight`: estimate / o200k 0.99 on
 * dev-bfcl, 0.90 to 1.11 per tool). Claude's tokenizer counts somewhat more for the same text.
 */
const ASCII_CHARACTERS_PER_TOKEN = 4.8;

/**
 * Tokens per character outside ASCII: with ASCII at 4.8, 0.8 matches o200k_base on the
 * benchmark's Chinese catalog (estimate / o200k 1.00 on dev-acebench-zh, 0.89 to 1.08 per tool).
 */
const TOKENS_PER_OTHER_CHARACTER = 0.8;

/**
 * A model-independent estimate of the tokens a text takes: ASCII characters / 4.8 plus 0.8 per
 * other character, within about a tenth of o200k_base on tool definitions. It needs no
 * tokenizer, so it runs wherever the core runs.
 * @param text - any text
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let position = 0; position < text.length; position++) {
    const code = text.charCodeAt(position);
    if (code < 0x80) ascii++;
    // The second half of a surrogate pair is the same character as the first.
    else if (code < 0xdc00 || code > 0xdfff) other++;
  }
  return Math.ceil(ascii / ASCII_CHARACTERS_PER_TOKEN + other * TOKENS_PER_OTHER_CHARACTER);
}

/** Each descriptor's weight, computed once: a catalog's descriptors live as long as it does. */
const weights = new WeakMap<ToolDescriptor, number>();

/**
 * What a tool's definition weighs in a request, in estimated tokens: its name, description and
 * input schema as a provider receives them (`{ name, description, input_schema }`).
 * @param descriptor - the tool's descriptor
 */
export function toolWeight(descriptor: ToolDescriptor): number {
  let weight = weights.get(descriptor);
  if (weight === undefined) {
    let schema = '{"type":"object"}';
    try {
      schema = JSON.stringify(descriptor.inputSchema ?? { type: 'object' }) ?? schema;
    } catch {
      // A schema JSON cannot write (a cycle) is never sent as it is; weigh it as an empty one.
    }
    weight = estimateTokens(
      `{"name":${JSON.stringify(descriptor.id)},"description":${JSON.stringify(descriptor.description ?? '')},"input_schema":${schema}}`,
    );
    weights.set(descriptor, weight);
  }
  return weight;
}
