/**
 * Checksums of a snapshot's words: FNV-1a (Fowler, Noll and Vo) over 32-bit words, where every
 * step is a bijection, so any one damaged word is always caught. The bounds of the sections the
 * index looks things up by are checked in the same loop, so each word is read once (cold memory
 * is most of the cost of a restore).
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * A section whose words must stay in bounds: `bounded` (each <= limit), `ascending` (and never
 * decreasing), `offsets` (ascending, from 0 to limit).
 */
export interface SectionCheck {
  /** The section's first word. */
  from: number;
  /** Its length, in words. */
  count: number;
  kind: 'bounded' | 'ascending' | 'offsets';
  limit: number;
  /** What a failure says was wrong. */
  what: string;
}

/** The running checksum of a pass over the words, and the first bound it found broken. */
interface Scan {
  hash: number;
  failure: string | undefined;
}

/** The checksum of `words[from .. to)`. */
export function wordsHash(words: Uint32Array, from: number, to: number): number {
  const scan: Scan = { hash: FNV_OFFSET, failure: undefined };
  scanPlain(words, from, to, scan);
  return scan.hash >>> 0;
}

/**
 * The checksum of `words[0 .. end)`, checking the sections (in ascending order, within `end`) on
 * the way; stops at the first section out of bounds.
 * @returns the checksum, or the `what` of the first failed check (the checksum is then partial)
 */
export function checkSections(
  words: Uint32Array,
  checks: readonly SectionCheck[],
  end: number,
): { hash: number; failure: string | undefined } {
  const scan: Scan = { hash: FNV_OFFSET, failure: undefined };
  let at = 0;
  for (const check of checks) {
    scanPlain(words, at, check.from, scan);
    at = check.from + check.count;
    if (check.kind === 'bounded') scanBounded(words, check.from, at, check.limit, scan);
    else scanAscending(words, check.from, at, check.limit, scan);
    if (scan.failure === undefined && check.kind === 'offsets') {
      // Offsets start at 0 and end at their section's length.
      if (words[check.from] !== 0 || words[at - 1] !== check.limit) scan.failure = 'offsets';
    }
    if (scan.failure !== undefined) return { hash: scan.hash >>> 0, failure: check.what };
  }
  scanPlain(words, at, end, scan);
  return { hash: scan.hash >>> 0, failure: undefined };
}

function scanPlain(words: Uint32Array, from: number, to: number, scan: Scan): void {
  let hash = scan.hash;
  for (let position = from; position < to; position++) {
    hash = Math.imul(hash ^ words[position]!, FNV_PRIME);
  }
  scan.hash = hash;
}

function scanBounded(
  words: Uint32Array,
  from: number,
  to: number,
  limit: number,
  scan: Scan,
): void {
  let hash = scan.hash;
  let broken = false;
  for (let position = from; position < to; position++) {
    const value = words[position]!;
    hash = Math.imul(hash ^ value, FNV_PRIME);
    if (value > limit) broken = true;
  }
  scan.hash = hash;
  if (broken) scan.failure = 'bounds';
}

function scanAscending(
  words: Uint32Array,
  from: number,
  to: number,
  limit: number,
  scan: Scan,
): void {
  let hash = scan.hash;
  let broken = false;
  let previous = 0;
  for (let position = from; position < to; position++) {
    const value = words[position]!;
    hash = Math.imul(hash ^ value, FNV_PRIME);
    if (value < previous || value > limit) broken = true;
    previous = value;
  }
  scan.hash = hash;
  if (broken) scan.failure = 'bounds';
}
