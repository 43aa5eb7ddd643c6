import type { FilterPhase } from '../meta-tools/filter-phase';
import { toolWeight } from '../meta-tools/tool-weight';
import type { CatalogEntry } from './tool-catalog';
import type { ActiveTool } from './types';

/** What {@link directTools} reads of a request. */
export interface DirectToolsHost<TTool> {
  /** The engine's catalog. */
  readonly staticCatalog: ReadonlyMap<string, CatalogEntry<TTool>>;
  /** The request's own tools, which shadow static tools of the same id. */
  readonly resolvedCatalog: ReadonlyMap<string, CatalogEntry<TTool>> | undefined;
  /** Pinned tool ids, in their order. */
  readonly pinned: readonly string[];
  /** Whether the engine has a filter: without one every tool is allowed. */
  readonly filtered: boolean;
  allows(id: string, phase: FilterPhase): Promise<boolean>;
}

/** Tools whose filter answers are asked at once: an async filter (a policy service) answers them together. */
const FILTER_BATCH = 64;

/** Each catalog's total weight, computed once: catalogs do not change. */
const totals = new WeakMap<ReadonlyMap<string, unknown>, number>();

/**
 * What a catalog's tool definitions weigh together, in estimated tokens (`toolWeight` of each).
 * @param catalog - tools by id
 */
export function catalogWeight<TTool>(catalog: ReadonlyMap<string, CatalogEntry<TTool>>): number {
  let total = totals.get(catalog);
  if (total === undefined) {
    total = 0;
    for (const entry of catalog.values()) total += toolWeight(entry.descriptor);
    totals.set(catalog, total);
  }
  return total;
}

/**
 * The tools to give the model directly, when the request's tools weigh less than `limit`
 * estimated tokens; `undefined` when it searches instead. The tools are those the filter allows in
 * every phase (a pinned tool needs only `active`, as when it is offered beside the meta-tools),
 * in a fixed order: pinned, then the catalog's (a request's own tool in place of a static tool of
 * its id), then the request's own others. With a filter, tools are asked about in catalog order
 * until the allowed ones reach the limit, so a large catalog that the filter leaves large is
 * found out early.
 * @param host - the request
 * @param limit - `toolSearch` as a weight (`ResolvedEngineOptions.directBelow`)
 */
export async function directTools<TTool>(
  host: DirectToolsHost<TTool>,
  limit: number,
): Promise<ActiveTool<TTool>[] | undefined> {
  if (!(limit > 0)) return undefined;
  const { staticCatalog, resolvedCatalog } = host;
  if (!host.filtered) {
    let weight = catalogWeight(staticCatalog);
    if (resolvedCatalog) {
      weight += catalogWeight(resolvedCatalog);
      for (const id of resolvedCatalog.keys()) {
        const shadowed = staticCatalog.get(id);
        if (shadowed) weight -= toolWeight(shadowed.descriptor);
      }
    }
    if (weight >= limit) return undefined;
  }
  const pinned = new Set(host.pinned);
  const candidates = [...ordered(host, pinned)];
  const toActive = (entry: CatalogEntry<TTool>): ActiveTool<TTool> => ({
    id: entry.descriptor.id,
    tool: entry.tool,
    pinned: pinned.has(entry.descriptor.id),
  });
  if (!host.filtered) return candidates.map(toActive);
  const tools: ActiveTool<TTool>[] = [];
  let weight = 0;
  for (let start = 0; start < candidates.length; start += FILTER_BATCH) {
    const batch = candidates.slice(start, start + FILTER_BATCH);
    const verdicts = await Promise.all(
      batch.map(async (entry) => {
        const id = entry.descriptor.id;
        if (pinned.has(id)) return host.allows(id, 'active');
        const phases = await Promise.all([
          host.allows(id, 'search'),
          host.allows(id, 'load'),
          host.allows(id, 'active'),
        ]);
        return phases.every(Boolean);
      }),
    );
    batch.forEach((entry, position) => {
      if (!verdicts[position]) return;
      weight += toolWeight(entry.descriptor);
      tools.push(toActive(entry));
    });
    if (weight >= limit) return undefined;
  }
  return tools;
}

/** The request's tools in the order they are given directly, each once. */
function* ordered<TTool>(
  host: DirectToolsHost<TTool>,
  pinned: ReadonlySet<string>,
): Iterable<CatalogEntry<TTool>> {
  const { staticCatalog, resolvedCatalog } = host;
  const entryOf = (id: string) => resolvedCatalog?.get(id) ?? staticCatalog.get(id);
  for (const id of pinned) {
    const entry = entryOf(id);
    if (entry) yield entry;
  }
  for (const id of staticCatalog.keys()) if (!pinned.has(id)) yield entryOf(id)!;
  if (resolvedCatalog) {
    for (const [id, entry] of resolvedCatalog) {
      if (!pinned.has(id) && !staticCatalog.has(id)) yield entry;
    }
  }
}
