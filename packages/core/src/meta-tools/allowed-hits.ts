import type { SearchHit } from '../search/tool-descriptor';
import type { Ranker } from './fused-ranking';
import type { MetaToolHost } from './meta-tool-host';

/**
 * Per searched index, a filter that drops a static tool a request-resolved one shadows; `undefined`
 * when the request searches the static catalog alone (then nothing can be shadowed, and no hit
 * pays for a check).
 */
export function shadowFilters<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
): ((id: string) => boolean)[] | undefined {
  const { indexes } = session;
  return indexes.length > 1
    ? indexes.map((index) => (id: string) => !session.isShadowed(id, index))
    : undefined;
}

/**
 * The best hits of a ranking that `allows` accepts, at most `topK`, best first. Candidates are
 * checked in rank order in growing windows (twice `topK`, then four times deeper each round), so
 * an async filter runs for few more tools than are kept; a hit a deeper window ranks again (a
 * fused ranking can reorder its tail) is not checked twice.
 * @param rank - the ranking, cut at a window's depth
 * @param total - how many tools the ranking can return at most: the last window
 * @param allows - the check a hit must pass, asked for a window's new hits at once
 */
export async function allowedHits(
  rank: Ranker,
  total: number,
  topK: number,
  allows: (id: string) => Promise<boolean>,
): Promise<SearchHit[]> {
  // A window of zero never grows: nothing to keep is the whole answer.
  if (topK < 1) return [];
  const allowed: SearchHit[] = [];
  const checked = new Set<string>();
  for (let window = topK * 2; ; window *= 4) {
    const hits = rank(window);
    const batch = hits.filter((hit) => !checked.has(hit.id));
    for (const hit of batch) checked.add(hit.id);
    const verdicts = await Promise.all(batch.map((hit) => allows(hit.id)));
    for (const [position, hit] of batch.entries()) {
      if (!verdicts[position]) continue;
      allowed.push(hit);
      if (allowed.length === topK) return allowed;
    }
    if (hits.length < window || window >= total) return allowed;
  }
}
