import { normalizeText } from '../search/tokenizer';

/** Names this far apart (edits per character of the longer name) are still "near". */
const MAX_RELATIVE_DISTANCE = 0.34;
const MAX_SUGGESTIONS = 3;
/**
 * Names longer than this are not matched for suggestions: the edit distance costs the product of
 * the two lengths, and no real tool name comes near it.
 */
const MAX_SUGGESTED_NAME_LENGTH = 256;

/**
 * Names close to a misspelled one: by edit distance on the normalized names, or by one
 * containing the other (`weather` → `get_weather`).
 *
 * @param name - what the model asked for
 * @param candidates - names it may use; a list stands for one tool's names (its key, then its
 *   id): the tool is suggested once, under its closest name, the earlier name winning a tie
 * @returns up to three names, closest first
 */
export function suggestNames(
  name: string,
  candidates: Iterable<string | readonly string[]>,
): string[] {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return [];
  const wanted = normalizeText(name).replace(/[\s_.-]+/g, '');
  if (!wanted) return [];
  const scored: { name: string; distance: number }[] = [];
  for (const candidate of candidates) {
    let best: { name: string; distance: number } | undefined;
    for (const label of typeof candidate === 'string' ? [candidate] : candidate) {
      if (label.length > MAX_SUGGESTED_NAME_LENGTH) continue;
      const distance = nameDistance(wanted, label);
      if (distance !== undefined && (best === undefined || distance < best.distance))
        best = { name: label, distance };
    }
    if (best) scored.push(best);
  }
  scored.sort((left, right) => left.distance - right.distance || (left.name < right.name ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name);
}

/** How far a candidate is from the normalized wanted name, or `undefined` when it is not near. */
function nameDistance(wanted: string, candidate: string): number | undefined {
  const key = normalizeText(candidate).replace(/[\s_.-]+/g, '');
  const longer = Math.max(key.length, wanted.length);
  if (
    Math.abs(key.length - wanted.length) > longer * MAX_RELATIVE_DISTANCE &&
    !key.includes(wanted)
  )
    return undefined;
  const distance =
    key.includes(wanted) || wanted.includes(key)
      ? 0.5
      : editDistance(wanted, key, Math.ceil(longer * MAX_RELATIVE_DISTANCE));
  return distance <= longer * MAX_RELATIVE_DISTANCE ? distance : undefined;
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
