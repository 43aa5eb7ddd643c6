import type {
  CjkSegmentation,
  FieldName,
  TokenizerOptions,
  ToolIndexOptions,
} from 'tool-search-core';
import { UsageError } from './cli-error';

/** The ranking flags of `search`, `eval` and `inspect`, as `parseArgs` declares them. */
export const RANKING_FLAGS = {
  'min-score': { type: 'string' },
  weight: { type: 'string', multiple: true },
  'exact-id-boost': { type: 'string' },
  'word-id-boost': { type: 'string' },
  k1: { type: 'string' },
  b: { type: 'string', multiple: true },
  'no-stem': { type: 'boolean' },
  'no-stop-words': { type: 'boolean' },
  cjk: { type: 'string' },
} as const;

/** The ranking flags' values after `parseArgs`. */
export interface RankingFlagValues {
  'min-score'?: string | undefined;
  weight?: string[] | undefined;
  'exact-id-boost'?: string | undefined;
  'word-id-boost'?: string | undefined;
  k1?: string | undefined;
  b?: string[] | undefined;
  'no-stem'?: boolean | undefined;
  'no-stop-words'?: boolean | undefined;
  cjk?: string | undefined;
}

/** Ranking settings read from the flags. */
export interface RankingSettings {
  /** For `ToolIndex`. */
  index: ToolIndexOptions;
  /** `--min-score`, when given. */
  minScore: number | undefined;
  /** Whether any flag changed the ranking from the defaults (for the tables' footers). */
  changed: string[];
}

/** Field names as the flags accept them: the index's names and kebab-case spellings. */
const FIELD_ALIASES: Record<string, FieldName> = {
  id: 'id',
  description: 'description',
  parameters: 'parameters',
  params: 'parameters',
  parameterdescriptions: 'parameterDescriptions',
  'parameter-descriptions': 'parameterDescriptions',
  'param-descriptions': 'parameterDescriptions',
  keywords: 'keywords',
};
const CJK_MODES: readonly CjkSegmentation[] = ['bigram', 'segmenter', 'both'];

/**
 * Reads the ranking flags into `ToolIndex` options.
 * @throws {UsageError} naming the flag and the value it cannot use
 */
export function readRankingFlags(values: RankingFlagValues): RankingSettings {
  const index: ToolIndexOptions = {};
  const changed: string[] = [];
  const fieldWeights: Partial<Record<FieldName, number>> = {};
  for (const entry of values.weight ?? []) {
    const [field, value] = fieldValue('--weight', entry);
    fieldWeights[field] = number(`--weight ${field}`, value, { min: 0 });
    changed.push(`weight ${field}=${value}`);
  }
  if (Object.keys(fieldWeights).length > 0) index.fieldWeights = fieldWeights;
  const exact = values['exact-id-boost'];
  const word = values['word-id-boost'];
  if (exact !== undefined || word !== undefined) {
    index.idBoost = {
      ...(exact !== undefined && { exact: number('--exact-id-boost', exact, { min: 0 }) }),
      ...(word !== undefined && { word: number('--word-id-boost', word, { min: 0 }) }),
    };
    if (exact !== undefined) changed.push(`exact-id-boost ${exact}`);
    if (word !== undefined) changed.push(`word-id-boost ${word}`);
  }
  if (values.k1 !== undefined) {
    index.k1 = number('--k1', values.k1, { min: 0, exclusive: true });
    changed.push(`k1 ${values.k1}`);
  }
  const bs = values.b ?? [];
  if (bs.length > 0) {
    const perField: Partial<Record<FieldName, number>> = {};
    let all: number | undefined;
    for (const entry of bs) {
      if (entry.includes('=')) {
        const [field, value] = fieldValue('--b', entry);
        perField[field] = number(`--b ${field}`, value, { min: 0, max: 1 });
      } else {
        all = number('--b', entry, { min: 0, max: 1 });
      }
      changed.push(`b ${entry}`);
    }
    const fields = Object.keys(perField) as FieldName[];
    if (all !== undefined && fields.length === 0) index.b = all;
    else {
      index.b = { ...perField };
      if (all !== undefined) {
        for (const field of Object.values(FIELD_ALIASES)) index.b[field] ??= all;
      }
    }
  }
  const tokenizer: TokenizerOptions = {};
  if (values['no-stem']) {
    tokenizer.stem = false;
    changed.push('no stemming');
  }
  if (values['no-stop-words']) {
    tokenizer.stopWords = false;
    changed.push('no stop words');
  }
  if (values.cjk !== undefined) {
    if (!CJK_MODES.includes(values.cjk as CjkSegmentation))
      throw new UsageError(`--cjk must be bigram, segmenter or both, got "${values.cjk}"`);
    tokenizer.cjk = values.cjk as CjkSegmentation;
    changed.push(`cjk ${values.cjk}`);
  }
  if (Object.keys(tokenizer).length > 0) index.tokenizer = tokenizer;
  const minScore =
    values['min-score'] === undefined ? undefined : number('--min-score', values['min-score']);
  if (minScore !== undefined) changed.push(`min-score ${values['min-score']}`);
  return { index, minScore, changed };
}

function fieldValue(flag: string, entry: string): [FieldName, string] {
  const separator = entry.indexOf('=');
  if (separator < 0)
    throw new UsageError(`${flag} takes FIELD=NUMBER (e.g. ${flag} id=3), got "${entry}"`);
  const name = entry.slice(0, separator).trim();
  // Own keys only: `__proto__=2` or `constructor=2` must not pass for a field.
  const alias = name.toLowerCase();
  const field = Object.hasOwn(FIELD_ALIASES, alias) ? FIELD_ALIASES[alias] : undefined;
  if (!field) {
    throw new UsageError(
      `${flag}: unknown field "${name}"; the fields are id, description, parameters, parameterDescriptions, keywords`,
    );
  }
  return [field, entry.slice(separator + 1).trim()];
}

/**
 * Reads a number flag.
 * @throws {UsageError} when it is not a finite number within the bounds
 */
export function number(
  flag: string,
  text: string,
  bounds: { min?: number; max?: number; exclusive?: boolean; integer?: boolean } = {},
): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  const { min, max, exclusive = false, integer = false } = bounds;
  const tooLow = min !== undefined && (exclusive ? value <= min : value < min);
  const tooHigh = max !== undefined && value > max;
  if (!Number.isFinite(value) || tooLow || tooHigh || (integer && !Number.isInteger(value))) {
    const kind = integer ? 'an integer' : 'a number';
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? ` ${exclusive ? '>' : '>='} ${min}`
          : '';
    throw new UsageError(`${flag} must be ${kind}${range}, got "${text}"`);
  }
  return value;
}
