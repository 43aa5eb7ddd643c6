import {
  createTokenizer,
  extractSchemaText,
  type Tokenizer,
  type TokenizerOptions,
} from 'tool-search-core';
import type { CatalogTool } from '../source/catalog';

/** Two tools whose searchable text is nearly the same. */
export interface NearDuplicatePair {
  /** The two ids, in catalog order. */
  ids: [string, string];
  /** Cosine similarity of their term vectors, in [0, 1]. */
  similarity: number;
}

/**
 * Pairs at or above this cosine are reported. Read on two labelled catalogs (docs/decisions/0009-cli.md):
 * from 0.8 the pairs are one operation under two names, or texts one or two words apart ("nearby
 * stores" / "nearby libraries"), which keyword search cannot tell apart; from 0.7 to 0.8 most
 * are different operations of one family (an exchange rate / a currency conversion).
 */
export const DEFAULT_DUPLICATE_THRESHOLD = 0.8;

/**
 * Finds pairs of tools that look the same to search. Each tool becomes a vector over the analyzed
 * terms (the index's tokenizer) of its id, description, parameter names and descriptions and
 * keywords, weighted `(1 + ln tf) · ln(1 + N / df)` — the logarithmic tf and idf of Salton &
 * Buckley, "Term-weighting approaches in automatic text retrieval" (1988), with the idf smoothed so
 * a term every tool shares still counts a little — and pairs are compared by cosine. Unlike a
 * Jaccard overlap of term sets, the weights make two tools similar only when they share the words
 * that set them apart from the rest of the catalog, which is what BM25's idf ranks on too.
 * @param tools - the catalog
 * @param options - the threshold and the tokenizer (the index's)
 * @returns pairs at or above the threshold, most similar first
 */
export function findNearDuplicates(
  tools: readonly CatalogTool[],
  options: { threshold?: number; tokenizer?: Tokenizer | TokenizerOptions } = {},
): NearDuplicatePair[] {
  const threshold = options.threshold ?? DEFAULT_DUPLICATE_THRESHOLD;
  const tokenize =
    typeof options.tokenizer === 'function'
      ? options.tokenizer
      : createTokenizer(options.tokenizer ?? {});
  const termIds = new Map<string, number>();
  const documentFrequency: number[] = [];
  const counts = tools.map((tool) => {
    const frequency = new Map<number, number>();
    for (const text of searchableTexts(tool)) {
      for (const term of tokenize(text)) {
        let termId = termIds.get(term);
        if (termId === undefined) {
          termId = termIds.size;
          termIds.set(term, termId);
          documentFrequency.push(0);
        }
        const seen = frequency.get(termId) ?? 0;
        if (seen === 0) documentFrequency[termId]!++;
        frequency.set(termId, seen + 1);
      }
    }
    return frequency;
  });
  const total = tools.length;
  // Per term, the tools holding it (ascending) and the term's weight in each.
  const postings: { tools: number[]; weights: number[] }[] = documentFrequency.map(() => ({
    tools: [],
    weights: [],
  }));
  const norms = new Float64Array(total);
  const vectors = counts.map((frequency, tool) => {
    const vector = new Map<number, number>();
    let squares = 0;
    for (const [termId, count] of frequency) {
      const weight = (1 + Math.log(count)) * Math.log(1 + total / documentFrequency[termId]!);
      vector.set(termId, weight);
      postings[termId]!.tools.push(tool);
      postings[termId]!.weights.push(weight);
      squares += weight * weight;
    }
    norms[tool] = Math.sqrt(squares);
    return vector;
  });
  const pairs: NearDuplicatePair[] = [];
  const dot = new Float64Array(total);
  const touched: number[] = [];
  vectors.forEach((vector, tool) => {
    if (norms[tool] === 0) return;
    for (const [termId, own] of vector) {
      const posting = postings[termId]!;
      // Only later tools: each pair is scored once, from its first tool.
      for (let at = posting.tools.length - 1; at >= 0 && posting.tools[at]! > tool; at--) {
        const other = posting.tools[at]!;
        if (dot[other] === 0) touched.push(other);
        dot[other]! += own * posting.weights[at]!;
      }
    }
    for (const other of touched) {
      const similarity = Math.min(1, dot[other]! / (norms[tool]! * norms[other]!));
      dot[other] = 0;
      if (similarity >= threshold) {
        pairs.push({ ids: [tools[tool]!.id, tools[other]!.id], similarity });
      }
    }
    touched.length = 0;
  });
  return pairs.sort((a, b) => b.similarity - a.similarity);
}

function searchableTexts(tool: CatalogTool): string[] {
  const schema = extractSchemaText(tool.inputSchema);
  return [
    tool.id,
    tool.description,
    ...schema.names,
    ...schema.descriptions,
    ...(tool.keywords ?? []),
  ];
}
