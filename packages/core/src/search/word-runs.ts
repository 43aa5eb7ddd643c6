/** What a run of characters is, which decides how it becomes terms. */
export const RunKind = {
  /** Letters and digits of a spaced script (Latin, Cyrillic, Greek, Arabic...): a word. */
  Word: 1,
  /** Han, Kana and Hangul, written without spaces: indexed as character bigrams. */
  Cjk: 2,
  /** Thai, Lao, Khmer and Myanmar, written without spaces: segmented by dictionary. */
  Segmented: 3,
} as const;
export type RunKind = (typeof RunKind)[keyof typeof RunKind];

/** ASCII letters and digits, by char code. */
const ASCII_WORD = new Uint8Array(128);
for (let code = 48; code <= 57; code++) ASCII_WORD[code] = RunKind.Word;
for (let code = 65; code <= 90; code++) ASCII_WORD[code] = RunKind.Word;
for (let code = 97; code <= 122; code++) ASCII_WORD[code] = RunKind.Word;

const UNICODE_WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const APOSTROPHE = 0x27;
const RIGHT_SINGLE_QUOTE = 0x2019;

/** The kind of the code point, 0 for a separator. Unspaced scripts by Unicode block ranges. */
function kindOf(point: number, text: string, index: number, length: number): number {
  if (point < 128) return ASCII_WORD[point]!;
  // ゠ and ・ sit in the Katakana block but are punctuation.
  if (point === 0x30a0 || point === 0x30fb) return 0;
  if (
    (point >= 0x3040 && point <= 0x30ff) || // Hiragana, Katakana (with ー)
    (point >= 0x4e00 && point <= 0x9fff) || // CJK Unified Ideographs
    (point >= 0x3400 && point <= 0x4dbf) || // Extension A
    (point >= 0xac00 && point <= 0xd7af) || // Hangul syllables
    (point >= 0xf900 && point <= 0xfaff) || // Compatibility ideographs
    (point >= 0x20000 && point <= 0x3ffff) || // Extensions B and later
    (point >= 0x2e80 && point <= 0x2fdf) || // Radicals
    (point >= 0x31f0 && point <= 0x31ff) || // Katakana extensions
    (point >= 0x1100 && point <= 0x11ff) || // Hangul jamo
    (point >= 0x3130 && point <= 0x318f) || // Hangul compatibility jamo
    point === 0x3005 || // 々
    point === 0x3007 // 〇
  ) {
    return RunKind.Cjk;
  }
  if (
    (point >= 0x0e00 && point <= 0x0eff) || // Thai, Lao
    (point >= 0x1000 && point <= 0x109f) || // Myanmar
    (point >= 0x1780 && point <= 0x17ff) // Khmer
  ) {
    return RunKind.Segmented;
  }
  return UNICODE_WORD_CHAR.test(text.slice(index, index + length)) ? RunKind.Word : 0;
}

/**
 * Calls `onRun` for each maximal run of one kind: words of letters, digits and marks (an
 * apostrophe inside a word joins it: "don't"), and runs of unspaced scripts. Anything else
 * separates runs, which splits `github.create-issue`, `a__b` and `path/to/file`, and "查询API密钥"
 * yields 查询, API, 密钥. A hand-written scan: Unicode-property regexes were most of the indexing time.
 */
export function forEachRun(text: string, onRun: (run: string, kind: RunKind) => void): void {
  const length = text.length;
  let start = -1;
  let runKind = 0;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    const point = code >= 0xd800 && code <= 0xdbff ? text.codePointAt(index)! : code;
    const size = point > 0xffff ? 2 : 1;
    const kind = kindOf(point, text, index, size);
    if (kind !== 0 && kind === runKind) {
      index += size;
      continue;
    }
    if (
      kind === 0 &&
      runKind === RunKind.Word &&
      (code === APOSTROPHE || code === RIGHT_SINGLE_QUOTE) &&
      index + 1 < length &&
      kindOf(text.charCodeAt(index + 1), text, index + 1, 1) === RunKind.Word
    ) {
      index++;
      continue;
    }
    if (start >= 0) onRun(text.slice(start, index), runKind as RunKind);
    start = kind === 0 ? -1 : index;
    runKind = kind;
    index += size;
  }
  if (start >= 0) onRun(text.slice(start), runKind as RunKind);
}
