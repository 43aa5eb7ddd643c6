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
   * @default { exact: 1, word: 0.5 }
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
 * Default field weights: every occurrence counts the same, except the id's words and curated
 * keywords, which name what the tool is about and count double. Parameter descriptions were
 * measured to carry as much signal as the description (docs/decisions/0001-ranking.md).
 */
export const DEFAULT_FIELD_WEIGHTS: Readonly<Record<FieldName, number>> = {
  id: 2,
  description: 1,
  parameters: 1,
  parameterDescriptions: 1,
  keywords: 2,
};

/** BM25's usual length normalization (Robertson & Zaragoza 2009), the same for every field. */
export const DEFAULT_B = 0.75;

/** The k1 most BM25 implementations default to (Robertson & Zaragoza 2009 suggest 1.2–2.0). */
export const DEFAULT_K1 = 1.2;
/**
 * Mastra documents +5 when a query term equals the tool id. A query that is a tool's name finds
 * it first 99.7% of the time with +1 already (91.5% with none), while +5 also lifts one-word ids
 * above better matches for natural-language queries; +1 measured best on both counts
 * (docs/decisions/0001-ranking.md). Set `idBoost.exact: 5` for Mastra's.
 */
export const DEFAULT_EXACT_ID_BOOST = 1;
/**
 * Mastra documents +2 per query term found in the id. The id's words already weigh double in
 * BM25F, so a large flat bonus mostly reorders natural-language queries by id length; 0.5 keeps
 * the bonus and measured best (docs/decisions/0001-ranking.md). Set `idBoost.word: 2` for Mastra's.
 */
export const DEFAULT_WORD_ID_BOOST = 0.5;

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
    const b = typeof options.b === 'number' ? options.b : (options.b?.[name] ?? DEFAULT_B);
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
