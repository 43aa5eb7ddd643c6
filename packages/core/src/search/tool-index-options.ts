import { createTokenizer, type Tokenizer, type TokenizerOptions } from './tokenizer';

/** The fields a tool is indexed under. */
export type FieldName = 'id' | 'description' | 'parameters' | 'parameterDescriptions' | 'keywords';

/** Options of {@link ToolIndex}. */
export interface ToolIndexOptions {
  /** A tokenizer, or options for the default one. Queries and tools go through the same one. */
  tokenizer?: Tokenizer | TokenizerOptions;
  /** Weight of a term occurrence per field, relative to the description's. */
  fieldWeights?: Partial<Record<FieldName, number>>;
  /** BM25 length normalization per field (0 = none, 1 = full), or one value for all fields. */
  b?: number | Partial<Record<FieldName, number>>;
  /**
   * BM25 term-frequency saturation.
   * @default 1.2
   */
  k1?: number;
  /**
   * ID-match boosts added to the score: `exact` when the query, or one of its whitespace-separated
   * words, equals the tool id (case-insensitive); `word` for each query term that is one of the
   * id's words. `0` turns a boost off.
   * @default { exact: 5, word: 2 }
   */
  idBoost?: { exact?: number; word?: number };
}

export const FIELD_NAMES: readonly FieldName[] = [
  'id',
  'description',
  'parameters',
  'parameterDescriptions',
  'keywords',
];
export const FIELD_COUNT = FIELD_NAMES.length;

/**
 * Default field weights. The id's words are the strongest evidence of what a tool does, keywords
 * are curated by the catalog's author, parameter names are short and telling, and parameter
 * descriptions are long and often generic ("The ID of the ..."), so they count least.
 */
export const DEFAULT_FIELD_WEIGHTS: Readonly<Record<FieldName, number>> = {
  id: 3,
  description: 1,
  parameters: 0.8,
  parameterDescriptions: 0.4,
  keywords: 2,
};

/**
 * Default length normalization. Ids and parameter lists are short and similar in length, so
 * normalizing them mostly adds noise; descriptions vary from one line to a page.
 */
export const DEFAULT_FIELD_B: Readonly<Record<FieldName, number>> = {
  id: 0.3,
  description: 0.75,
  parameters: 0.5,
  parameterDescriptions: 0.75,
  keywords: 0.5,
};

/** The k1 most BM25 implementations default to (Robertson & Zaragoza 2009 suggest 1.2–2.0). */
export const DEFAULT_K1 = 1.2;
/** Documented contract: +5 when a query term equals the tool id. */
export const DEFAULT_EXACT_ID_BOOST = 5;
/** Documented contract: +2 when a query term is one of the id's words. */
export const DEFAULT_WORD_ID_BOOST = 2;

export interface IndexSettings {
  tokenize: Tokenizer;
  fieldWeights: Float64Array;
  fieldB: Float64Array;
  k1: number;
  exactBoost: number;
  wordBoost: number;
}

export function resolveIndexSettings(options: ToolIndexOptions): IndexSettings {
  const tokenize =
    typeof options.tokenizer === 'function'
      ? options.tokenizer
      : createTokenizer(options.tokenizer);
  const fieldWeights = new Float64Array(FIELD_COUNT);
  const fieldB = new Float64Array(FIELD_COUNT);
  FIELD_NAMES.forEach((name, field) => {
    fieldWeights[field] = nonNegative(
      `fieldWeights.${name}`,
      options.fieldWeights?.[name] ?? DEFAULT_FIELD_WEIGHTS[name],
    );
    const b =
      typeof options.b === 'number' ? options.b : (options.b?.[name] ?? DEFAULT_FIELD_B[name]);
    if (!(b >= 0 && b <= 1))
      throw new RangeError(`ToolIndex: b.${name} must be between 0 and 1, got ${b}`);
    fieldB[field] = b;
  });
  const k1 = options.k1 ?? DEFAULT_K1;
  if (!(k1 > 0 && Number.isFinite(k1)))
    throw new RangeError(`ToolIndex: k1 must be a positive number, got ${k1}`);
  return {
    tokenize,
    fieldWeights,
    fieldB,
    k1,
    exactBoost: nonNegative('idBoost.exact', options.idBoost?.exact ?? DEFAULT_EXACT_ID_BOOST),
    wordBoost: nonNegative('idBoost.word', options.idBoost?.word ?? DEFAULT_WORD_ID_BOOST),
  };
}

function nonNegative(name: string, value: number): number {
  if (!(value >= 0 && Number.isFinite(value))) {
    throw new RangeError(`ToolIndex: ${name} must be a finite number >= 0, got ${value}`);
  }
  return value;
}
