import {
  createTokenizer,
  extractSchemaText,
  type FieldName,
  normalizeText,
  type Tokenizer,
  type TokenizerOptions,
} from 'tool-search-core';
import type { CatalogTool } from '../source/catalog';

/** The query terms one field of a tool matched. */
export interface FieldMatch {
  /** The field, as `ToolIndex` names it, or `'exact id'` when the query (or one of its words) is the id. */
  field: FieldName | 'exact id';
  /** The analyzed query terms found in the field (stemmed, case-folded), in query order. */
  terms: string[];
}

/** Punctuation a query wraps a tool name in; the index strips it before the exact-id comparison. */
const WRAPPING = /^[\s"'`“”‘’()[\]{}<>,;:!?]+|[\s"'`“”‘’()[\]{}<>,;:!?.]+$/gu;

/**
 * Creates an explainer of search hits: which of a tool's fields hold which query terms, analyzed
 * by the same tokenizer the index uses (so the terms are the index's, e.g. `weather`, `creat`).
 * @param tokenizer - the index's tokenizer, or the options it was created with
 * @example
 * const explain = createMatchExplainer();
 * explain(tool, 'weather in Paris'); // [{ field: 'id', terms: ['weather'] }, ...]
 */
export function createMatchExplainer(
  tokenizer: Tokenizer | TokenizerOptions = {},
): (tool: CatalogTool, query: string) => FieldMatch[] {
  const tokenize = typeof tokenizer === 'function' ? tokenizer : createTokenizer(tokenizer);
  return (tool, query) => explainMatch(tool, query, tokenize);
}

function explainMatch(tool: CatalogTool, query: string, tokenize: Tokenizer): FieldMatch[] {
  const queryTerms = [...new Set(tokenize(query))];
  const schema = extractSchemaText(tool.inputSchema);
  const fields: [FieldName, string[]][] = [
    ['id', [tool.id]],
    ['description', [tool.description]],
    ['parameters', schema.names],
    ['parameterDescriptions', schema.descriptions],
    ['keywords', tool.keywords ?? []],
  ];
  const matches: FieldMatch[] = [];
  const id = toExactKey(tool.id);
  const whole = toExactKey(query);
  if (whole === id || whole.split(/\s+/u).some((word) => toExactKey(word) === id)) {
    matches.push({ field: 'exact id', terms: [] });
  }
  for (const [field, texts] of fields) {
    const present = new Set(texts.flatMap((text) => tokenize(text)));
    const terms = queryTerms.filter((term) => present.has(term));
    if (terms.length > 0) matches.push({ field, terms });
  }
  return matches;
}

function toExactKey(text: string): string {
  return normalizeText(text).replace(WRAPPING, '');
}
