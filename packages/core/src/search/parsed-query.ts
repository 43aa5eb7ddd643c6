import { normalizeText, type Tokenizer } from './tokenizer';

/** Searching more text than this buys nothing: the query is cut here (a 100 kB query stays fast). */
export const MAX_QUERY_LENGTH = 4_096;
/** Distinct query terms scored at most; a model's query never needs more. */
const MAX_QUERY_TERMS = 64;
/** Punctuation a model wraps a tool name in (`"get_weather"`, `` `get_weather` ``). */
const WRAPPING_PUNCTUATION = /^[\s"'`“”‘’()[\]{}<>,;:!?]+|[\s"'`“”‘’()[\]{}<>,;:!?.]+$/gu;

/** The parsed form of a query, shared by every index it is scored against. */
export interface ParsedQuery {
  /** Distinct analyzed terms, in query order. */
  terms: string[];
  /** Normalized whole query and whitespace-separated words, for the exact-id boost. */
  exactKeys: string[];
}

/**
 * Analyzes a query once: its distinct terms, and the keys an id must equal for the exact-id boost
 * (the whole query and each of its words, case-folded, without wrapping quotes).
 *
 * @param query - the query; anything but a string parses as empty
 * @param tokenize - the index's tokenizer
 */
export function parseQuery(query: unknown, tokenize: Tokenizer): ParsedQuery {
  const text = typeof query === 'string' ? query.slice(0, MAX_QUERY_LENGTH) : '';
  const terms = [...new Set(tokenize(text))].slice(0, MAX_QUERY_TERMS);
  const exactKeys = new Set<string>();
  const whole = toExactKey(text);
  if (whole) exactKeys.add(whole);
  for (const word of whole.split(/\s+/u)) {
    const key = toExactKey(word);
    if (key && exactKeys.size <= MAX_QUERY_TERMS) exactKeys.add(key);
  }
  return { terms, exactKeys: [...exactKeys] };
}

/** The form an id and a query word are compared in for the exact-id boost. */
export function toExactKey(text: string): string {
  const folded = normalizeText(text);
  // Most ids start and end with a letter or digit: then there is nothing to strip.
  return folded.length > 1 &&
    isLowerAlphanumeric(folded.charCodeAt(0)) &&
    isLowerAlphanumeric(folded.charCodeAt(folded.length - 1))
    ? folded
    : folded.replace(WRAPPING_PUNCTUATION, '');
}

function isLowerAlphanumeric(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}
