import type { SlotTable } from './slot-table';
import { CONTENT_HASH_WORDS, writeToolContentHash } from './tool-content-hash';
import type { ToolDescriptor } from './tool-descriptor';

/** What `ToolIndex.sync` changed, by tool id. */
export interface IndexChanges {
  /** Tools the index did not hold, now indexed. */
  added: string[];
  /** Tools whose text (id, description, schema text, keywords) differed from the indexed one's: indexed again. */
  changed: string[];
  /** Tools the index held that were not given, now removed. */
  removed: string[];
}

/**
 * @internal Compares tools with an index's slots by content hash (see `tool-content-hash.ts`):
 * which to index (new or changed; of tools given twice, the last one counts) and which to remove.
 * Changes nothing, so a bad tool found late leaves the index as it was.
 * @throws TypeError for a tool without a non-empty string id
 */
export function planIndexChanges(
  tools: Iterable<ToolDescriptor>,
  slots: SlotTable,
): { changes: IndexChanges; toIndex: ToolDescriptor[] } {
  const hash = new Uint32Array(CONTENT_HASH_WORDS);
  /** 1 for a live slot whose tool was given unchanged. */
  const kept = new Uint8Array(slots.count);
  const toIndex = new Map<string, ToolDescriptor>();
  let guess = 0;
  for (const tool of tools) {
    if (typeof tool?.id !== 'string' || tool.id.length === 0) {
      throw new TypeError(
        `ToolIndex.sync: a tool needs a non-empty string id, got ${tool?.id === undefined ? 'undefined' : (JSON.stringify(tool.id) ?? typeof tool.id)}`,
      );
    }
    writeToolContentHash(tool, hash, 0);
    const slot = slots.findSlot(tool.id, guess);
    if (slot !== undefined) guess = slot + 1;
    if (slot !== undefined && slots.hasContentHash(slot, hash, 0)) {
      kept[slot] = 1;
      // A tool given twice: this later, unchanged one wins over an earlier changed one.
      if (toIndex.size > 0) toIndex.delete(tool.id);
    } else {
      if (slot !== undefined) kept[slot] = 0;
      toIndex.set(tool.id, tool);
    }
  }
  const changes: IndexChanges = { added: [], changed: [], removed: [] };
  for (const id of toIndex.keys()) {
    (slots.slotOf(id) === undefined ? changes.added : changes.changed).push(id);
  }
  let keptCount = 0;
  for (let slot = 0; slot < kept.length; slot++) keptCount += kept[slot]!;
  if (keptCount + changes.changed.length < slots.liveCount) {
    for (let slot = 0; slot < slots.count; slot++) {
      if (slots.alive[slot] === 0 || kept[slot] === 1) continue;
      const id = slots.idAt(slot);
      if (!toIndex.has(id)) changes.removed.push(id);
    }
  }
  return { changes, toIndex: [...toIndex.values()] };
}
