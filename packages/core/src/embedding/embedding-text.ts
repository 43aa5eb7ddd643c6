import { splitIdentifier } from '../search/tokenizer';
import { extractSchemaText, type ToolDescriptor } from '../search/tool-descriptor';

/**
 * Longest text embedded per tool, in characters (about 500 tokens): the head of a description
 * says what a tool does, and the cut keeps every tool inside small local models' 512-token inputs.
 */
export const MAX_EMBEDDING_TEXT_LENGTH = 2_000;

/**
 * The text a tool is embedded as: its name's words, its description, its parameter names (as
 * words) and its keywords, e.g. `"get weather: Current weather for a city. Parameters: city,
 * units."`. Parameter descriptions are left out: they rarely say what the tool is for, and they
 * cost tokens. Tools with the same text share one vector.
 * @param descriptor - the tool as the index knows it
 * @returns at most {@link MAX_EMBEDDING_TEXT_LENGTH} characters
 */
export function toEmbeddingText(descriptor: ToolDescriptor): string {
  const name = splitIdentifier(descriptor.id).join(' ') || descriptor.id;
  const parts = [name];
  const description =
    typeof descriptor.description === 'string' ? descriptor.description.trim() : '';
  if (description)
    parts[0] = `${name}: ${/[.!?。！？]$/u.test(description) ? description : `${description}.`}`;
  const parameters = [
    ...new Set(
      extractSchemaText(descriptor.inputSchema)
        .names.map((parameter) => splitIdentifier(parameter).join(' '))
        .filter((words) => words !== ''),
    ),
  ];
  if (parameters.length > 0) parts.push(`Parameters: ${parameters.join(', ')}.`);
  const keywords = Array.isArray(descriptor.keywords)
    ? descriptor.keywords.filter((keyword) => typeof keyword === 'string' && keyword.trim() !== '')
    : [];
  if (keywords.length > 0) parts.push(`Keywords: ${keywords.join(', ')}.`);
  const text = parts.join(' ');
  if (text.length <= MAX_EMBEDDING_TEXT_LENGTH) return text;
  // Never end on half a surrogate pair: an embedder would see a broken character.
  const cut = text.slice(0, MAX_EMBEDDING_TEXT_LENGTH);
  return /[\uD800-\uDBFF]$/u.test(cut) ? cut.slice(0, -1) : cut;
}
