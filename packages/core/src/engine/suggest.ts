import { normalizeText } from '../search/tokenizer';

/** Names this far apart (edits per character of the longer name) are still "near". */
const MAX_RELATIVE_DISTANCE = 0.34;
const MAX_SUGGESTIONS = 3;

/**
 * Names close to a misspelled one: by edit distance on the normalized names, or by one
 * containing the other (`weather` → `get_weather`).
 *
 * @param name - what the model asked for
 * @param candidates - names it may use
 * @returns up to three names, closest first
 */
export function suggestNames(name: string, candidates: Iterable<string>): string[] {
  const wanted = normalizeText(name).replace(/[\s_.-]+/g, '');
  if (!wanted) return [];
  const scored: { name: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const key = normalizeText(candidate).replace(/[\s_.-]+/g, '');
    const longer = Math.max(key.length, wanted.length);
    if (
      Math.abs(key.length - wanted.length) > longer * MAX_RELATIVE_DISTANCE &&
      !key.includes(wanted)
    )
      continue;
    const distance =
      key.includes(wanted) || wanted.includes(key)
        ? 0.5
        : editDistance(wanted, key, Math.ceil(longer * MAX_RELATIVE_DISTANCE));
    if (distance <= longer * MAX_RELATIVE_DISTANCE) scored.push({ name: candidate, distance });
  }
  scored.sort((left, right) => left.distance - right.distance || (left.name < right.name ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name);
}

/** Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
function editDistance(left: string, right: string, limit: number): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    let rowMinimum = row;
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      const value = Math.min(
        previous[column]! + 1,
        current[column - 1]! + 1,
        previous[column - 1]! + cost,
      );
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return limit + 1;
    previous = current;
  }
  return previous[right.length]!;
}
