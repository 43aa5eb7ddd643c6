import type { FusionSettings } from '../embedding/embed-function';
import { DEFAULT_RRF_K } from '../search/reciprocal-rank-fusion';
import type { ResolvedFusionSettings } from './session-engine';
import { DEFAULT_TOOL_SEARCH_THRESHOLD, type ToolSearchMode } from './types';

/** A cold call to a hosted embeddings API takes up to a second or two; five leaves room, not a hang. */
const DEFAULT_EMBED_TIMEOUT = 5_000;
/** Tool texts per embedding call: under every hosted API's per-request limit we know of but Cohere's (96), which adapters split further. */
const DEFAULT_EMBED_BATCH_SIZE = 128;

/** Timers fire at once beyond this delay (a signed 32-bit count of ms). */
const MAX_TIMER_DELAY = 2_147_483_647;

/** `toolSearch` as the weight below which tools are given directly (see `ResolvedEngineOptions`). */
export function resolveToolSearch(mode: ToolSearchMode | undefined): number {
  if (mode === undefined || mode === true) return 0;
  if (mode === false) return Number.POSITIVE_INFINITY;
  if (mode === 'auto') return DEFAULT_TOOL_SEARCH_THRESHOLD;
  const threshold = (mode as { threshold?: unknown } | null)?.threshold;
  if (typeof threshold === 'number' && threshold >= 0 && !Number.isNaN(threshold)) return threshold;
  throw new TypeError(
    `ToolSearchEngine: toolSearch must be true, false, 'auto' or { threshold: number >= 0 }, got ${JSON.stringify(mode)}`,
  );
}

/** Checks the fusion settings and fills in their defaults. */
export function resolveFusion(settings: FusionSettings | undefined): ResolvedFusionSettings {
  const k = settings?.k ?? DEFAULT_RRF_K;
  if (!(Number.isFinite(k) && k >= 0))
    throw new RangeError(`ToolSearchEngine: fusion.k must be a finite number >= 0, got ${k}`);
  const textWeight = settings?.textWeight ?? 1;
  const vectorWeight = settings?.vectorWeight ?? 1;
  for (const [name, weight] of [
    ['textWeight', textWeight],
    ['vectorWeight', vectorWeight],
  ] as const) {
    if (!(Number.isFinite(weight) && weight >= 0))
      throw new RangeError(
        `ToolSearchEngine: fusion.${name} must be a finite number >= 0, got ${weight}`,
      );
  }
  if (textWeight + vectorWeight === 0)
    throw new RangeError(
      'ToolSearchEngine: fusion.textWeight and fusion.vectorWeight cannot both be 0',
    );
  const minSimilarity = settings?.minSimilarity ?? Number.NEGATIVE_INFINITY;
  if (Number.isNaN(minSimilarity))
    throw new RangeError('ToolSearchEngine: fusion.minSimilarity must be a number');
  const timeout = settings?.timeout ?? DEFAULT_EMBED_TIMEOUT;
  if (!(timeout > 0 && timeout <= MAX_TIMER_DELAY))
    throw new RangeError(
      `ToolSearchEngine: fusion.timeout must be > 0 and <= ${MAX_TIMER_DELAY} ms, got ${timeout}`,
    );
  const batchSize = settings?.batchSize ?? DEFAULT_EMBED_BATCH_SIZE;
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new RangeError(
      `ToolSearchEngine: fusion.batchSize must be an integer >= 1, got ${batchSize}`,
    );
  const kernel = settings?.kernel ?? 'auto';
  if (kernel !== 'auto' && kernel !== 'js')
    throw new TypeError(
      `ToolSearchEngine: fusion.kernel must be 'auto' or 'js', got ${String(kernel)}`,
    );
  const model = settings?.model;
  if (model !== undefined && typeof model !== 'string')
    throw new TypeError('ToolSearchEngine: fusion.model must be a string');
  return {
    k,
    textWeight,
    vectorWeight,
    minSimilarity,
    timeout,
    batchSize,
    kernel,
    ...(model !== undefined && { model }),
  };
}
