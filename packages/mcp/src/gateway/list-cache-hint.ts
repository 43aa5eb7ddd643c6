import type { ActiveTool } from 'tool-search-core';
import type { GatewayTool, UpstreamManager } from '../upstream/upstream-manager';

/** The `ttlMs` and `cacheScope` of a 2026-07-28 `tools/list` answer (SEP-2549 `CacheableResult`). */
export interface ListCacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/**
 * How long a client may keep the gateway's own tool list: it changes only with the tools pinned
 * in it (an upstream's tools change, a tool is quarantined or approved), and a stale copy is
 * harmless (every call is checked when it arrives: a quarantined tool is refused, a newly pinned
 * one is found by search), so a minute bounds how long a client shows an old list.
 */
export const GATEWAY_LIST_TTL = 60_000;

/**
 * The cache hint of the gateway's 2026-07-28 `tools/list`: `ttlMs` {@link GATEWAY_LIST_TTL}, or
 * less when a pinned tool's server gave its own list a shorter `ttlMs`, and `0` while the first
 * starts are not over (servers still starting may add pinned tools); `cacheScope` always
 * `'private'`: the list holds the user's pinned tools, and every gateway has the same server
 * name, so a shared cache keyed by it could hand one gateway's list to another's clients.
 * @param listed - the pinned tools the list holds
 */
export function gatewayListCacheHint(
  listed: readonly ActiveTool<GatewayTool>[],
  context: { upstreams: UpstreamManager; started: boolean },
): ListCacheHint {
  if (!context.started) return { ttlMs: 0, cacheScope: 'private' };
  let ttlMs = GATEWAY_LIST_TTL;
  for (const server of new Set(listed.map((active) => active.tool.server))) {
    const upstream = context.upstreams.listHints(server)?.ttlMs;
    if (upstream !== undefined) ttlMs = Math.min(ttlMs, upstream);
  }
  return { ttlMs, cacheScope: 'private' };
}
