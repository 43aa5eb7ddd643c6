/** Words shorter than this are left alone: stripping "ing" from "ring" or "s" from "gas" loses the word. */
const MIN_STEMMABLE_LENGTH = 4;
/** A stem must keep at least this many letters, so "bed" or "sing" survive whole. */
const MIN_STEM_LENGTH = 3;

const VOWEL = /[aeiouy]/;
const DOUBLED_CONSONANT = /([b-df-hj-np-tv-z])\1$/;
/** Doubled consonants that English keeps after dropping a suffix ("installing" → "install"). */
const KEPT_DOUBLES = new Set(['ll', 'ss', 'zz', 'ff']);

/**
 * A light English stemmer: conflates plurals, "-ing", "-ed" and a final silent "e", so that
 * "creates", "created", "creating" and "create" share the stem "creat".
 *
 * The plural rules follow Harman's S-stemmer (D. Harman, "How effective is suffixing?", JASIS 42(1),
 * 1991); the "-ing"/"-ed" and final-"e" rules are ours, kept conservative because a tool catalog
 * is short text where an over-eager stemmer (Porter's "general" → "gener") merges unrelated
 * words. Only lower-case ASCII words are touched; anything else is returned unchanged.
 *
 * @param word - a lower-case token
 * @returns the stem
 */
export function stem(word: string): string {
  if (word.length < MIN_STEMMABLE_LENGTH || !/^[a-z]+$/.test(word)) return word;
  let result = stripPlural(word);
  result = stripVerbSuffix(result);
  if (result.length > MIN_STEM_LENGTH && result.endsWith('e') && !result.endsWith('ee')) {
    result = result.slice(0, -1);
  }
  return result;
}

function stripPlural(word: string): string {
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) {
    return `${word.slice(0, -3)}y`;
  }
  if (word.endsWith('es') && !/(?:aes|ees|oes)$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('s') && !/(?:us|ss|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function stripVerbSuffix(word: string): string {
  for (const suffix of ['ing', 'ed']) {
    if (!word.endsWith(suffix)) continue;
    let base = word.slice(0, -suffix.length);
    if (base.length < MIN_STEM_LENGTH || !VOWEL.test(base)) return word;
    const doubled = DOUBLED_CONSONANT.exec(base);
    if (doubled && !KEPT_DOUBLES.has(base.slice(-2))) base = base.slice(0, -1);
    return base;
  }
  return word;
}
