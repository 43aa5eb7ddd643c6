import { DEFAULT_STOP_WORDS } from './stop-words';
import { type CjkSegmentation, createTokenizer } from './tokenizer';
import {
  FIELD_NAMES,
  type FieldName,
  resolveIndexSettings,
  type ToolIndexOptions,
} from './tool-index-options';

/** Why a snapshot was refused. */
export type SnapshotErrorReason = 'format' | 'version' | 'corrupt' | 'options' | 'tokenizer';

/** A snapshot that cannot be written or restored, and why. */
export class SnapshotError extends Error {
  /** What is wrong: not a snapshot, another format version, damaged bytes, other ranking options, or a tokenizer that cannot be saved or that splits text differently here. */
  readonly reason: SnapshotErrorReason;

  constructor(reason: SnapshotErrorReason, message: string) {
    super(message);
    this.name = 'SnapshotError';
    this.reason = reason;
  }
}

/** Everything that decides how an index ranks, in a form a snapshot can carry and compare. */
export interface RankingDescription {
  fieldWeights: Record<FieldName, number>;
  b: Record<FieldName, number>;
  k1: number;
  idBoost: { exact: number; word: number };
  tokenizer: {
    /** `'default'` for the built-in list, `false` for none, else the words, sorted. */
    stopWords: 'default' | false | string[];
    stem: boolean;
    cjk: CjkSegmentation;
  };
  /**
   * Whether the index holds text that `Intl.Segmenter` splits (Thai, Lao, Myanmar, Khmer, or
   * any text when `cjk` is not `'bigram'`): only then does the segmenter decide its terms, and
   * only then is it part of `analyzer` (loading its dictionaries takes tens of milliseconds).
   */
  segmenter: boolean;
  /**
   * What the tokenizer makes of a fixed text, hashed: a tokenizer that splits, folds, stems or
   * segments differently (another version of this library, another ICU in Node) differs here.
   */
  analyzer: string;
}

/**
 * Covers what the tokenizer decides: camelCase and snake_case splitting, stop words, stemming,
 * Unicode folding (NFKC, diacritics, ß, ligatures, full-width digits) and CJK bigrams (or
 * `Intl.Segmenter` words, when `cjk` asks for them).
 */
const ANALYZER_PROBE =
  'getWeatherForecast for the Zürich café: HTMLParser v2Beta github.create-issue server__tool ' +
  'creating running studies analyses l’hôtel de la gare Straße ﬁle ０１２ 天气预报查询 東京の天気 ' +
  '날씨 예보 Ελληνικά ΑΘΗΝΑ';
/** The `Intl.Segmenter` words of an unspaced script (Thai), probed when the index has such text. */
const SEGMENTER_PROBE = 'ภาษาไทยง่ายนิดเดียว';

/**
 * The ranking an index built with these options has.
 * @param options - the index's options
 * @param segmenter - whether the index holds text `Intl.Segmenter` splits (see {@link RankingDescription.segmenter})
 * @throws SnapshotError when the tokenizer or the stemmer is a function, which no snapshot can hold
 */
export function describeRanking(options: ToolIndexOptions, segmenter = true): RankingDescription {
  const tokenizer = options.tokenizer;
  if (typeof tokenizer === 'function') {
    throw new SnapshotError(
      'tokenizer',
      'ToolIndex snapshot: the index uses a custom tokenizer function, which a snapshot cannot hold or check. ' +
        'Use tokenizer options (stopWords, stem, cjk), or build the index at start-up instead.',
    );
  }
  if (typeof tokenizer?.stem === 'function') {
    throw new SnapshotError(
      'tokenizer',
      'ToolIndex snapshot: the tokenizer uses a custom stem function, which a snapshot cannot hold or check. ' +
        'Use stem: true or false, or build the index at start-up instead.',
    );
  }
  const settings = resolveIndexSettings(options);
  const stopWords: RankingDescription['tokenizer']['stopWords'] =
    tokenizer?.stopWords === false
      ? false
      : tokenizer?.stopWords === undefined || tokenizer.stopWords === DEFAULT_STOP_WORDS
        ? ('default' as const)
        : [...tokenizer.stopWords].sort();
  const tokenizerOptions: RankingDescription['tokenizer'] = {
    stopWords,
    stem: tokenizer?.stem !== false,
    cjk: tokenizer?.cjk ?? 'bigram',
  };
  const perField = (values: Float64Array) =>
    Object.fromEntries(FIELD_NAMES.map((name, field) => [name, values[field]!])) as Record<
      FieldName,
      number
    >;
  return {
    fieldWeights: perField(settings.fieldWeights),
    b: perField(settings.fieldB),
    k1: settings.k1,
    idBoost: { exact: settings.exactBoost, word: settings.wordBoost },
    tokenizer: tokenizerOptions,
    segmenter,
    analyzer: analyzerOf(tokenizerOptions, segmenter),
  };
}

/** Analyzer fingerprints by tokenizer options: one probe per process and options. */
const analyzers = new Map<string, string>();

function analyzerOf(tokenizer: RankingDescription['tokenizer'], segmenter: boolean): string {
  const key = JSON.stringify([tokenizer, segmenter]);
  let analyzer = analyzers.get(key);
  if (analyzer === undefined) {
    const tokenize = createTokenizer(toTokenizerOptions(tokenizer));
    const probe = tokenize(ANALYZER_PROBE);
    if (segmenter) probe.push('\u0002', ...tokenize(SEGMENTER_PROBE));
    // The default stop words belong to the library version, so their content is hashed too.
    const defaults =
      tokenizer.stopWords === 'default' ? [...DEFAULT_STOP_WORDS].sort().join(' ') : '';
    analyzer = hashText(`${probe.join('\u0000')}\u0001${defaults}`);
    analyzers.set(key, analyzer);
  }
  return analyzer;
}

/** The index options that rebuild a described ranking. */
export function toIndexOptions(ranking: RankingDescription): ToolIndexOptions {
  return {
    fieldWeights: { ...ranking.fieldWeights },
    b: { ...ranking.b },
    k1: ranking.k1,
    idBoost: { ...ranking.idBoost },
    tokenizer: toTokenizerOptions(ranking.tokenizer),
  };
}

function toTokenizerOptions(tokenizer: RankingDescription['tokenizer']) {
  return {
    ...(tokenizer.stopWords !== 'default' && {
      stopWords: tokenizer.stopWords === false ? (false as const) : new Set(tokenizer.stopWords),
    }),
    stem: tokenizer.stem,
    cjk: tokenizer.cjk,
  };
}

/**
 * The differences between the ranking a snapshot was built with and the one asked for, as
 * readable lines; empty when they rank alike.
 */
export function rankingDifferences(
  saved: RankingDescription,
  wanted: RankingDescription,
): string[] {
  const differences: string[] = [];
  const compare = (path: string, left: unknown, right: unknown): void => {
    const savedText = JSON.stringify(left);
    const wantedText = JSON.stringify(right);
    if (savedText !== wantedText) {
      differences.push(`${path}: snapshot ${clip(savedText)}, options ${clip(wantedText)}`);
    }
  };
  for (const name of FIELD_NAMES) {
    compare(`fieldWeights.${name}`, saved.fieldWeights[name], wanted.fieldWeights[name]);
    compare(`b.${name}`, saved.b[name], wanted.b[name]);
  }
  compare('k1', saved.k1, wanted.k1);
  compare('idBoost.exact', saved.idBoost.exact, wanted.idBoost.exact);
  compare('idBoost.word', saved.idBoost.word, wanted.idBoost.word);
  compare('tokenizer.stopWords', saved.tokenizer.stopWords, wanted.tokenizer.stopWords);
  compare('tokenizer.stem', saved.tokenizer.stem, wanted.tokenizer.stem);
  compare('tokenizer.cjk', saved.tokenizer.cjk, wanted.tokenizer.cjk);
  return differences;
}

/** Reads a ranking description from a snapshot's header, or `undefined` when it is malformed. */
export function parseRanking(value: unknown): RankingDescription | undefined {
  if (!isRecord(value)) return undefined;
  const { fieldWeights, b, idBoost, tokenizer } = value;
  if (!isRecord(fieldWeights) || !isRecord(b) || !isRecord(idBoost) || !isRecord(tokenizer))
    return undefined;
  const numbers = [
    value.k1,
    idBoost.exact,
    idBoost.word,
    ...FIELD_NAMES.flatMap((name) => [fieldWeights[name], b[name]]),
  ];
  if (!numbers.every((number) => typeof number === 'number' && Number.isFinite(number)))
    return undefined;
  const { stopWords, stem, cjk } = tokenizer;
  const validStopWords =
    stopWords === 'default' ||
    stopWords === false ||
    (Array.isArray(stopWords) && stopWords.every((word) => typeof word === 'string'));
  if (!validStopWords || typeof stem !== 'boolean') return undefined;
  if (cjk !== 'bigram' && cjk !== 'segmenter' && cjk !== 'both') return undefined;
  if (typeof value.analyzer !== 'string' || typeof value.segmenter !== 'boolean') return undefined;
  return value as unknown as RankingDescription;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** 32-bit FNV-1a over UTF-16 code units (Fowler, Noll and Vo), as hex. */
function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let position = 0; position < text.length; position++) {
    hash = Math.imul(hash ^ text.charCodeAt(position), 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
