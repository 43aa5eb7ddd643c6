/**
 * Seeded random numbers for `bench:cost`'s content: every draw is a pure function of a text key,
 * so a run repeats exactly, and every row of a scenario draws the same content for the same step
 * whatever order it plays its steps in.
 */

/** FNV-1a offset basis and prime, 32-bit (Fowler, Noll and Vo; IETF draft-eastlake-fnv). */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Draws thrown away after seeding: keys that differ in one character start far apart. */
const WARM_UP_DRAWS = 8;

function hashKey(key: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/**
 * Uniform numbers in [0, 1) from a key: xorshift32 (Marsaglia, "Xorshift RNGs", Journal of
 * Statistical Software 8(14), 2003, shifts 13, 17, 5) seeded with the key's FNV-1a hash.
 * @param key - any text; the same key gives the same sequence
 * @example
 * const random = seededRandom('seed 1/tool result/12');
 * const first = random();
 */
export function seededRandom(key: string): () => number {
  let state = hashKey(key) || 1;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let draw = 0; draw < WARM_UP_DRAWS; draw++) next();
  return next;
}

/** A log-normal distribution by its mean and the standard deviation of its logarithm. */
export interface LogNormal {
  meanTokens: number;
  sigma: number;
  /** Draws are clipped to this range. */
  minTokens: number;
  maxTokens: number;
}

/**
 * One draw from a log-normal distribution (Box–Muller for the normal deviate), rounded and
 * clipped: `exp(mu + sigma · z)` with `mu = ln(mean) − sigma² / 2`, so the draws average `mean`.
 * @param distribution - mean, sigma and the clipping range
 * @param random - a uniform source, e.g. {@link seededRandom}
 */
export function drawLogNormal(distribution: LogNormal, random: () => number): number {
  const { meanTokens, sigma, minTokens, maxTokens } = distribution;
  const mu = Math.log(meanTokens) - (sigma * sigma) / 2;
  // 1 − u lies in (0, 1], so the logarithm is finite.
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const value = Math.round(Math.exp(mu + sigma * z));
  return Math.min(maxTokens, Math.max(minTokens, value));
}

/** The median of a log-normal distribution: `exp(mu)`. */
export function logNormalMedian(distribution: LogNormal): number {
  return Math.exp(Math.log(distribution.meanTokens) - distribution.sigma ** 2 / 2);
}
