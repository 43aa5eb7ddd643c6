/** ASCII letters and digits, by char code. */
const ASCII_WORD = new Uint8Array(128);
for (let code = 48; code <= 57; code++) ASCII_WORD[code] = 1;
for (let code = 65; code <= 90; code++) ASCII_WORD[code] = 1;
for (let code = 97; code <= 122; code++) ASCII_WORD[code] = 1;

const UNICODE_WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const APOSTROPHE = 0x27;
const RIGHT_SINGLE_QUOTE = 0x2019;

/** Length in UTF-16 units of the word character at `index`, or 0 when it is not one. */
function wordCharLength(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 128) return ASCII_WORD[code]!;
  const point = text.codePointAt(index)!;
  const length = point > 0xffff ? 2 : 1;
  return UNICODE_WORD_CHAR.test(text.slice(index, index + length)) ? length : 0;
}

/**
 * Calls `onRun` for each maximal run of letters, digits and marks, letting an apostrophe join two
 * runs ("don't"). Anything else separates runs, which splits `github.create-issue`, `a__b` and
 * `path/to/file`. A hand-written scan: a Unicode-property regex with `matchAll` was most of the
 * indexing time.
 */
export function forEachWordRun(text: string, onRun: (run: string) => void): void {
  const length = text.length;
  let start = -1;
  let index = 0;
  while (index < length) {
    const size = wordCharLength(text, index);
    if (size > 0) {
      if (start < 0) start = index;
      index += size;
      continue;
    }
    const code = text.charCodeAt(index);
    if (
      start >= 0 &&
      (code === APOSTROPHE || code === RIGHT_SINGLE_QUOTE) &&
      index + 1 < length &&
      wordCharLength(text, index + 1) > 0
    ) {
      index++;
      continue;
    }
    if (start >= 0) {
      onRun(text.slice(start, index));
      start = -1;
    }
    index++;
  }
  if (start >= 0) onRun(text.slice(start));
}
