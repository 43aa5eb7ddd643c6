import type { IndexChanges } from '../search/index-changes';

/** Ids named in the message; the error's `changes` lists them all. */
const EXAMPLES = 3;

/**
 * What `onError` (operation `'snapshot'`) receives when an engine's catalog is not the one its
 * snapshot was written from: tools added, removed, or whose text (description, schema, keywords)
 * changed under the same id. The engine has already indexed exactly those again, so search ranks
 * the catalog as it is; the error says how far the snapshot has drifted, and that rebuilding it
 * would save that work at the next start.
 */
export class SnapshotDriftError extends Error {
  /** The ids of the catalog's tools the snapshot lacked, of those whose text changed, and of the snapshot's tools the catalog lacks. */
  readonly changes: IndexChanges;
  /** How many tools were indexed again: the added and the changed ones. */
  readonly reindexed: number;

  /**
   * @param changes - what `ToolIndex.sync` changed
   * @param restored - how many tools the index kept from the snapshot
   */
  constructor(changes: IndexChanges, restored: number) {
    const { added, changed, removed } = changes;
    const examples = [...changed, ...added, ...removed]
      .slice(0, EXAMPLES)
      .map((id) => JSON.stringify(id));
    super(
      `ToolSearchEngine: the index snapshot does not match the catalog: ${changed.length} of its tools have other text in the catalog, ${added.length} catalog tools are not in it, and ${removed.length} of its tools are not in the catalog (such as ${examples.join(', ')}). ` +
        `Those alone were indexed (${added.length + changed.length}) or removed (${removed.length}), so search ranks the catalog's text; ${restored} tools came from the snapshot. Rebuild the snapshot to start without indexing them.`,
    );
    this.name = 'SnapshotDriftError';
    this.changes = changes;
    this.reindexed = added.length + changed.length;
  }
}
