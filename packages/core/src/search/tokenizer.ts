import { stem as englishStem } from './stemmer';
import { DEFAULT_STOP_WORDS } from './stop-words';
import { forEachRun, RunKind } from './word-runs';

/** How runs of an unspaced script (Han, Kana, Hangul) become terms. */
export type CjkSegmentation = 'bigram' | 'segmenter' | 'both';

/** Options of {@link createTokenizer}. */
export interface TokenizerOptions {
  /**
   * Words to drop; `false` keeps every word.
   * @default DEFAULT_STOP_WORDS (English and French function words)
   */
  stopWords?: ReadonlySet<string> | false;
  /**
   * Conflate English inflections ("creating" → "creat"); `false` keeps words as written.
   * @default true
   */
  stem?: boolean | ((word: string) => string);
  /**
   * Han, Kana and Hangul runs: overlapping character bigrams (`'bigram'`), dictionary words
   * from `Intl.Segmenter` (`'segmenter'`), or both.
   * @default 'bigram'
   */
  cjk?: CjkSegmentation;
}

/** Turns text into search terms, in order, with repeats; the same function must index tools and read queries. */
export type Tokenizer = (text: string) => string[];

/** camelCase and PascalCase boundaries: "getWeather", "HTMLParser", "v2Beta". */
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/** Combining marks on Latin and Greek letters, folded away ("café" → "cafe"); kana voicing marks stay. */
const LATIN_GREEK_DIACRITIC = /(?<=[\p{Script=Latin}\p{Script=Greek}])\p{Mn}+/gu;
const APOSTROPHE = /['’]/g;
/** Distinct words whose analysis is remembered per tokenizer; bounds memory on endless input. */
const MAX_CACHED_WORDS = 50_000;

let wordSegmenter: Intl.Segmenter | undefined;
function segmentWords(text: string): string[] {
  wordSegmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const words: string[] = [];
  for (const part of wordSegmenter.segment(text)) {
    if (part.isWordLike) words.push(part.segment);
  }
  return words;
}

/**
 * Unicode-normalizes text for matching: NFKC (full-width forms and ligatures become plain
 * letters), case folding, and Latin/Greek diacritic folding.
 *
 * @param text - any string
 * @returns the folded text
 */
export function normalizeText(text: string): string {
  // NFKC, NFD and diacritic folding change nothing in ASCII text.
  if (isAscii(text)) return text.toLowerCase();
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replaceAll('ß', 'ss')
    .normalize('NFD')
    .replace(LATIN_GREEK_DIACRITIC, '')
    .normalize('NFC');
}

/**
 * Splits an identifier into its words: `getWeatherForecast`, `get_weather_forecast`,
 * `github.create-issue` and `weather__forecast` all yield lower-case words.
 *
 * @param identifier - a tool id or parameter name
 * @returns the words, in order
 */
export function splitIdentifier(identifier: string): string[] {
  const words: string[] = [];
  forEachRun(identifier.normalize('NFKC'), (run, kind) => {
    const parts = kind === RunKind.Word ? splitCamelCase(run) : [run];
    for (const part of parts) if (part) words.push(foldWord(part));
  });
  return words;
}

/** Adds the terms of a Han, Kana or Hangul run (already NFKC-normalized). */
function pushCjk(terms: string[], run: string, mode: CjkSegmentation): void {
  if (mode !== 'segmenter') {
    // Overlapping bigrams, and a lone character as itself: the standard indexing of unspaced
    // CJK text (as in Lucene's CJKAnalyzer). Unigrams of longer runs were measured to add noise:
    // common characters (的, 我, 是) match everything.
    if (run.length === 1 || !/[\ud800-\udbff]/.test(run)) {
      // One string per bigram (indexing `run[i]` would make each character a string first).
      if (run.length === 1) terms.push(run);
      for (let index = 0; index + 1 < run.length; index++)
        terms.push(run.substring(index, index + 2));
    } else {
      const chars = Array.from(run);
      if (chars.length === 1) terms.push(chars[0]!);
      for (let index = 0; index + 1 < chars.length; index++)
        terms.push(chars[index]! + chars[index + 1]!);
    }
  }
  if (mode !== 'bigram') {
    for (const word of segmentWords(run)) {
      if (mode === 'segmenter' || Array.from(word).length > 2) terms.push(word);
    }
  }
}

/**
 * Creates the tokenizer that {@link ToolIndex} uses: identifier splitting, Unicode folding, stop
 * words, light English stemming, and segmentation of unspaced scripts.
 *
 * @param options - see {@link TokenizerOptions}
 * @returns a function from text to terms
 * @example
 * const tokenize = createTokenizer();
 * tokenize('getWeatherForecast for Zürich'); // ['getweatherforecast', 'get', 'weather', 'forecast', 'zurich']
 */
export function createTokenizer(options: TokenizerOptions = {}): Tokenizer {
  const stopWords =
    options.stopWords === false ? undefined : (options.stopWords ?? DEFAULT_STOP_WORDS);
  const stemWord =
    options.stem === false
      ? undefined
      : typeof options.stem === 'function'
        ? options.stem
        : englishStem;
  const cjk = options.cjk ?? 'bigram';

  const analyzeWord = (run: string): string[] => {
    const terms: string[] = [];
    const parts = splitCamelCase(run);
    // "GitHub" is also indexed whole, so the query "github" finds it as well as "git hub".
    if (parts.length > 1) pushWord(terms, foldWord(run), stopWords, stemWord);
    for (const part of parts) if (part) pushWord(terms, foldWord(part), stopWords, stemWord);
    return terms;
  };

  // Catalog text repeats a small vocabulary, so analyzing each distinct word once makes indexing
  // several times faster. The cache is dropped when it grows past its cap. Unspaced runs are
  // whole phrases that rarely repeat, so they skip it.
  const cache = new Map<string, readonly string[]>();
  const analyzedWord = (run: string): readonly string[] => {
    let runTerms = cache.get(run);
    if (!runTerms) {
      runTerms = analyzeWord(run);
      if (cache.size >= MAX_CACHED_WORDS) cache.clear();
      cache.set(run, runTerms);
    }
    return runTerms;
  };
  const scan: TermScanner = (text, sink) => {
    if (!isNfkcInert(text)) {
      // NFKC may change this text: split the normalized text into runs.
      forEachRun(text.normalize('NFKC'), (run, kind) => {
        const terms =
          kind === RunKind.Cjk
            ? cjkTerms(run, cjk)
            : kind === RunKind.Segmented
              ? segmentWords(run)
              : analyzedWord(run);
        for (const term of terms) sink.term(term);
      });
      return;
    }
    // Text that NFKC cannot change is split by one scan, which a regular expression or NFKC
    // would cost more: ASCII letters and digits, an apostrophe between two of them joining the
    // word, or CJK Unified Ideographs; the rest separates, as in forEachRun.
    const length = text.length;
    let at = 0;
    while (at < length) {
      const code = text.charCodeAt(at);
      let end = at + 1;
      if (isHan(code)) {
        while (end < length && isHan(text.charCodeAt(end))) end++;
        if (cjk === 'bigram') {
          // Overlapping bigrams, a lone character as itself (see pushCjk).
          if (end - at === 1) sink.term(text.slice(at, end));
          for (let index = at; index + 2 <= end; index++) sink.hanBigram(text, index);
        } else {
          for (const term of cjkTerms(text.slice(at, end), cjk)) sink.term(term);
        }
      } else if (isAsciiAlphanumeric(code)) {
        for (;;) {
          while (end < length && isAsciiAlphanumeric(text.charCodeAt(end))) end++;
          if (
            end + 1 < length &&
            isApostrophe(text.charCodeAt(end)) &&
            isAsciiAlphanumeric(text.charCodeAt(end + 1))
          ) {
            end += 2;
            continue;
          }
          break;
        }
        sink.word(text, at, end, analyzedWord);
      }
      at = end;
    }
  };
  const tokenize: Tokenizer = (text) => {
    const sink = new TermArray();
    scan(text, sink);
    return sink.terms;
  };
  // The index reads terms through the scan, so bigrams it already knows are never copied out.
  Object.defineProperty(tokenize, SCAN_TERMS, { value: scan });
  return tokenize;
}

/**
 * Receives the terms of one text in order, as the default tokenizer finds them: how an index
 * takes them without an array of strings. Internal: tokenizers a user writes return arrays.
 */
export interface TermSink {
  term(term: string): void;
  /** The bigram `text[at] + text[at + 1]`, two CJK Unified Ideographs. */
  hanBigram(text: string, at: number): void;
  /** The terms of the ASCII word `text[start .. end)`, which `analyze` returns (it caches them). */
  word(
    text: string,
    start: number,
    end: number,
    analyze: (word: string) => readonly string[],
  ): void;
}

/** Finds the terms of a text and hands them to a sink, in the order its tokenizer returns them. */
export type TermScanner = (text: string, sink: TermSink) => void;

const SCAN_TERMS = Symbol('tool-search.scanTerms');

/** The scan behind a tokenizer made by {@link createTokenizer}, or `undefined` for any other function. */
export function termScannerOf(tokenize: Tokenizer): TermScanner | undefined {
  return (tokenize as Tokenizer & { [SCAN_TERMS]?: TermScanner })[SCAN_TERMS];
}

/** The sink of the tokenizer function: the terms as strings. */
class TermArray implements TermSink {
  readonly terms: string[] = [];
  term(term: string): void {
    this.terms.push(term);
  }
  hanBigram(text: string, at: number): void {
    this.terms.push(text.slice(at, at + 2));
  }
  word(
    text: string,
    start: number,
    end: number,
    analyze: (word: string) => readonly string[],
  ): void {
    for (const term of analyze(text.slice(start, end))) this.terms.push(term);
  }
}

function cjkTerms(run: string, mode: CjkSegmentation): string[] {
  const terms: string[] = [];
  pushCjk(terms, run, mode);
  return terms;
}

function isHan(code: number): boolean {
  return code >= 0x4e00 && code <= 0x9fff;
}

function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiLower(code) || isAsciiUpper(code) || isAsciiDigit(code);
}

function isApostrophe(code: number): boolean {
  return code === 0x27 || code === 0x2019;
}

/**
 * Punctuation of Chinese and Japanese text that NFKC maps to an ASCII separator (the full-width
 * comma, parentheses, colon...) or leaves alone: either way it separates words, so skipping NFKC
 * over it yields the same terms.
 */
const INERT_PUNCTUATION: ReadonlySet<number> = new Set([
  0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x3000, 0x3001, 0x3002, 0x3008, 0x3009, 0x300a, 0x300b,
  0x300c, 0x300d, 0x300e, 0x300f, 0x3010, 0x3011, 0xff01, 0xff08, 0xff09, 0xff0c, 0xff1a, 0xff1b,
  0xff1f,
]);

/**
 * Whether NFKC can be skipped for a text: it is ASCII, CJK Unified Ideographs (which NFKC leaves
 * alone and never composes) and {@link INERT_PUNCTUATION} only. Most Chinese catalog text is, and
 * normalizing it copied every text for nothing.
 */
export function isNfkcInert(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80 || isHan(code)) continue;
    if (!INERT_PUNCTUATION.has(code)) return false;
  }
  return true;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

function foldWord(word: string): string {
  const folded = normalizeText(word);
  return folded.includes("'") || folded.includes('’') ? folded.replace(APOSTROPHE, '') : folded;
}

/**
 * Splits camelCase words at {@link CAMEL_BOUNDARY}; ASCII words (most of them) are scanned by
 * hand, as the regular expression would split them.
 */
function splitCamelCase(word: string): string[] {
  if (!isAscii(word)) return word.split(CAMEL_BOUNDARY);
  let parts: string[] | undefined;
  let start = 0;
  for (let index = 1; index < word.length; index++) {
    if (!isAsciiUpper(word.charCodeAt(index))) continue;
    const previous = word.charCodeAt(index - 1);
    // "getWeather", "v2Beta": a capital after a lower-case letter or digit starts a word; in
    // "HTMLParser" the last capital of a run does, when a lower-case letter follows it.
    const boundary = isAsciiUpper(previous)
      ? index + 1 < word.length && isAsciiLower(word.charCodeAt(index + 1))
      : isAsciiLower(previous) || isAsciiDigit(previous);
    if (!boundary) continue;
    parts ??= [];
    parts.push(word.slice(start, index));
    start = index;
  }
  if (parts === undefined) return [word];
  parts.push(word.slice(start));
  return parts;
}

function isAsciiUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isAsciiLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function pushWord(
  terms: string[],
  word: string,
  stopWords: ReadonlySet<string> | undefined,
  stemWord: ((word: string) => string) | undefined,
): void {
  if (stopWords?.has(word)) return;
  terms.push(stemWord ? stemWord(word) : word);
}
