/**
 * What a server says about caching its list results: the `ttlMs` and `cacheScope` fields that
 * protocol revision 2026-07-28 puts on every cacheable result (SEP-2549 `CacheableResult`; the
 * MCP SDK 2.4's wire schema: `ttlMs` a non-negative integer of milliseconds, `cacheScope`
 * `"public"` or `"private"`, both required on `tools/list` results of that revision). A server of
 * the 2025 revisions may send them too; one that sends neither gives no hint.
 */
export interface ListCacheHints {
  /**
   * How long the list may be used before it is fetched again, in ms; `0`: stale at once (the
   * revision's "immediately stale").
   */
  ttlMs?: number;
  /**
   * `'private'`: the list must not be shared across authorization contexts; `'public'`: any
   * client may serve it to any user. The SDK treats a missing scope as private, and so do we.
   */
  cacheScope?: 'public' | 'private';
}

/** The valid hints a list result carries; invalid values are ignored, as the SDK ignores them. */
export function listCacheHintsOf(result: unknown): ListCacheHints {
  if (result === null || typeof result !== 'object') return {};
  const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
  return {
    ...(typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs >= 0 && { ttlMs }),
    ...((cacheScope === 'public' || cacheScope === 'private') && { cacheScope }),
  };
}
