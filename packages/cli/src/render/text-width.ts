/**
 * East Asian wide and fullwidth ranges (Unicode UAX #11, the common blocks): a terminal gives
 * these characters two columns.
 */
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
/** Combining marks and zero-width characters take no column. */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200B-\u200F\uFEFF]/u;

/** Columns a string takes in a terminal. */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** Cuts a string to at most `width` columns, ending in `…` when cut. Line breaks become spaces. */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (textWidth(flat) <= width) return flat;
  let result = '';
  let used = 0;
  for (const char of flat) {
    const next = charWidth(char);
    if (used + next > width - 1) break;
    result += char;
    used += next;
  }
  return `${result}…`;
}

/** Pads a string with spaces to `width` columns, on the right (`left`) or on the left (`right`). */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'left' ? text + fill : fill + text;
}

function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}
