import { toExactKey } from './parsed-query';
import type { DecodedSnapshot } from './snapshot-codec';
import { CONTENT_HASH_WORDS } from './tool-content-hash';
import { FIELD_COUNT } from './tool-index-options';

/** Initial room, in slots, of the per-slot arrays (they double when full). */
const INITIAL_SLOT_CAPACITY = 64;

/**
 * @internal The tools of an index by slot, the small integer its postings name a tool by: each
 * slot's id, description, exact-match key, field lengths, content hash and distinct terms, whether
 * it is alive, and the sums the BM25 length normalization averages.
 *
 * A removed tool's slot stays, dead, until {@link SlotTable.compact} renumbers the live ones
 * densely. A restored index leaves its per-slot arrays empty until their first write (see
 * {@link SlotTable.coverRestored}): restored slots are read from the snapshot in place.
 */
export class SlotTable {
  readonly #slotById = new Map<string, number>();
  /**
   * Slots by exact-match key, for the tools whose key is not their id as is (most ids already
   * are their key: those are found through `#slotById`). One slot is kept as a number, several
   * (ids that differ only in case or separators) as an array.
   */
  readonly #slotsByExactKey = new Map<string, number | number[]>();
  #ids: string[] = [];
  /** Descriptions by slot; a restored tool's is decoded from its snapshot when asked for. */
  #descriptions: (string | undefined)[] = [];
  #exactKeys: string[] = [];
  /** 1 for a live slot, 0 for a removed or unused one. */
  alive = new Uint8Array(INITIAL_SLOT_CAPACITY);
  /** Field lengths (term counts), `FIELD_COUNT` per slot. */
  fieldLengths: Uint32Array = new Uint32Array(INITIAL_SLOT_CAPACITY * FIELD_COUNT);
  /** `fieldLengths` is a view of a snapshot's bytes: copy it before writing in place. */
  #fieldLengthsBorrowed = false;
  /** Content hashes (see `tool-content-hash.ts`), `CONTENT_HASH_WORDS` per slot. */
  contentHashes: Uint32Array = new Uint32Array(INITIAL_SLOT_CAPACITY * CONTENT_HASH_WORDS);
  /** `contentHashes` is a view of a snapshot's bytes: copy it before writing in place. */
  #contentHashesBorrowed = false;
  /** The sum of each field's lengths over the live slots. */
  readonly fieldLengthSums = new Float64Array(FIELD_COUNT);
  /**
   * Distinct term ids of each slot, for removal; `undefined` for a slot whose terms are still
   * in a batch, or not derived yet (see {@link termsPending}).
   */
  terms: (Int32Array | undefined)[] = [];
  /** Some slots' terms (restored ones, a batch's) are to be derived from the postings first. */
  termsPending = false;
  /** Slots handed out, dead ones included. */
  count = 0;
  /** Live slots. */
  liveCount = 0;
  /** Bumped on every change; weights cached at an older epoch are stale. */
  epoch = 0;
  /** The snapshot a restored index reads its slots from. */
  #restored: DecodedSnapshot | undefined;
  /** Slots below this were restored and take their ids and keys from `#restored` (0 once renumbered). */
  #restoredCount = 0;

  /** How many slots fit before the arrays must grow. */
  get capacity(): number {
    return this.alive.length;
  }

  /** The id of a slot (a restored one is decoded from the snapshot on first use). */
  idAt(slot: number): string {
    return slot < this.#restoredCount ? this.#restored!.ids.at(slot) : this.#ids[slot]!;
  }

  /** The live slot of an id, or `undefined`. */
  slotOf(id: string): number | undefined {
    const slot = this.#slotById.get(id);
    if (slot !== undefined || this.#restoredCount === 0) return slot;
    const restored = this.#restored!.ids.indexOf(id);
    return restored >= 0 && restored < this.#restoredCount && this.alive[restored] === 1
      ? restored
      : undefined;
  }

  /**
   * The live slot of an id, trying `guess` first: tools given in the order they were indexed
   * (a catalog and the snapshot written from it) are each found there by one comparison.
   */
  findSlot(id: string, guess: number): number | undefined {
    if (guess < this.count && this.alive[guess] === 1) {
      const found =
        guess < this.#restoredCount
          ? this.#restored!.ids.equalsAt(guess, id)
          : this.#ids[guess] === id;
      if (found) return guess;
    }
    return this.slotOf(id);
  }

  /** The exact-match key of a slot: its id, or the folded form the snapshot or `add` recorded. */
  exactKeyAt(slot: number): string {
    if (slot >= this.#restoredCount) return this.#exactKeys[slot]!;
    const { foldedKeySlots, foldedKeys } = this.#restored!;
    const position = sortedIndexOf(foldedKeySlots, slot);
    return position < 0 ? this.idAt(slot) : foldedKeys.at(position);
  }

  /** The description stored for a slot. */
  descriptionAt(slot: number): string {
    const description = this.#descriptions[slot];
    if (description !== undefined) return description;
    return slot < this.#restoredCount ? this.#restored!.description(slot) : '';
  }

  /** The live ids, in insertion order (a replaced tool moves to the end). */
  ids(): string[] {
    const ids: string[] = [];
    for (let slot = 0; slot < this.#restoredCount; slot++) {
      if (this.alive[slot] === 1) ids.push(this.idAt(slot));
    }
    for (const id of this.#slotById.keys()) ids.push(id);
    return ids;
  }

  /** Calls `visit` with each live slot whose exact-match key is `key`. */
  forEachExactMatch(key: string, visit: (slot: number) => void): void {
    const direct = this.slotOf(key);
    if (direct !== undefined && this.exactKeyAt(direct) === key) visit(direct);
    const sameKey = this.#slotsByExactKey.get(key);
    if (typeof sameKey === 'number') {
      visit(sameKey);
    } else if (sameKey !== undefined) {
      for (const slot of sameKey) visit(slot);
    }
    if (this.#restoredCount > 0) {
      const { foldedKeys, foldedKeySlots } = this.#restored!;
      foldedKeys.forEachIndex(key, (position) => {
        const slot = foldedKeySlots[position]!;
        if (slot >= this.#restoredCount || this.alive[slot] === 0) return;
        visit(slot);
      });
    }
  }

  /** Whether every slot is handed out: the next tool needs {@link compact} or {@link grow}. */
  get full(): boolean {
    return this.count === this.alive.length;
  }

  /** Whether removed tools hold most of the slots, so that {@link compact} is worth it. */
  get mostlyDead(): boolean {
    return this.count - this.liveCount > this.count / 2;
  }

  /**
   * Puts a tool in the next slot, which must fit ({@link full} is false).
   * @param tool - its id, description, field lengths (`FIELD_COUNT` term counts) and content hash
   * @returns the slot
   */
  add(tool: {
    id: string;
    description: string;
    lengths: Uint32Array;
    contentHash: Uint32Array;
  }): number {
    const slot = this.count++;
    const lengthBase = slot * FIELD_COUNT;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const length = tool.lengths[field]!;
      this.fieldLengths[lengthBase + field] = length;
      this.fieldLengthSums[field]! += length;
    }
    this.contentHashes.set(tool.contentHash, slot * CONTENT_HASH_WORDS);
    const { id } = tool;
    this.#ids[slot] = id;
    this.#descriptions[slot] = tool.description;
    const exactKey = toExactKey(id);
    this.#exactKeys[slot] = exactKey;
    if (exactKey !== id) this.#addFoldedKey(exactKey, slot);
    this.alive[slot] = 1;
    this.#slotById.set(id, slot);
    this.liveCount++;
    this.epoch++;
    return slot;
  }

  /** Whether a slot's content hash is the one at `hash[at]` (`CONTENT_HASH_WORDS` words). */
  hasContentHash(slot: number, hash: Uint32Array, at: number): boolean {
    const base = slot * CONTENT_HASH_WORDS;
    return this.contentHashes[base] === hash[at] && this.contentHashes[base + 1] === hash[at + 1];
  }

  /** Marks a live slot removed; its terms must already be out of the postings' counts. */
  remove(id: string, slot: number): void {
    this.#slotById.delete(id);
    this.alive[slot] = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.fieldLengthSums[field]! -= this.fieldLengths[slot * FIELD_COUNT + field]!;
    }
    // A restored slot's key stays in the snapshot's table, where a dead slot is skipped.
    const exactKey = this.exactKeyAt(slot);
    if (exactKey !== id && slot >= this.#restoredCount) {
      const sameKey = this.#slotsByExactKey.get(exactKey)!;
      const others = typeof sameKey === 'number' ? [] : sameKey.filter((other) => other !== slot);
      if (others.length === 0) this.#slotsByExactKey.delete(exactKey);
      else this.#slotsByExactKey.set(exactKey, others.length === 1 ? others[0]! : others);
    }
    this.terms[slot] = new Int32Array(0);
    this.#descriptions[slot] = '';
    this.liveCount--;
    this.epoch++;
  }

  /** Grows the per-slot arrays to `capacity` slots. */
  grow(capacity: number): void {
    const alive = new Uint8Array(capacity);
    alive.set(this.alive);
    this.alive = alive;
    const lengths = new Uint32Array(capacity * FIELD_COUNT);
    lengths.set(this.fieldLengths);
    this.fieldLengths = lengths;
    this.#fieldLengthsBorrowed = false;
    const hashes = new Uint32Array(capacity * CONTENT_HASH_WORDS);
    hashes.set(this.contentHashes);
    this.contentHashes = hashes;
    this.#contentHashesBorrowed = false;
  }

  /** Sizes every per-slot array for `count` tools at once, in a fresh table. */
  reserve(count: number): void {
    this.grow(count);
    this.#ids = new Array(count);
    this.#exactKeys = new Array(count);
    this.#descriptions = new Array(count);
    this.terms = new Array(count);
  }

  /**
   * Sizes the per-slot arrays of a restored index to its restored slots, before the first write
   * to them (an add, a removal); until then restored slots are read from the snapshot.
   */
  coverRestored(): void {
    const count = this.#restoredCount;
    if (this.#ids.length >= count) return;
    // Nothing was written yet: every write calls this first. `new Array(n)` keeps fast elements.
    this.#ids = new Array(count);
    this.#exactKeys = new Array(count);
    this.#descriptions = new Array(count);
    this.terms = new Array(count);
  }

  /**
   * Renumbers the live slots densely, in order.
   * @returns each old slot's new number, or -1 for a removed one: the postings are renumbered by it
   */
  compact(): Int32Array {
    this.#adoptRestored();
    if (this.#fieldLengthsBorrowed) {
      this.fieldLengths = this.fieldLengths.slice();
      this.#fieldLengthsBorrowed = false;
    }
    if (this.#contentHashesBorrowed) {
      this.contentHashes = this.contentHashes.slice();
      this.#contentHashesBorrowed = false;
    }
    const remap = new Int32Array(this.count).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.count; slot++) {
      if (this.alive[slot] === 0) continue;
      const target = next++;
      remap[slot] = target;
      this.#ids[target] = this.#ids[slot]!;
      this.#descriptions[target] = this.#descriptions[slot]!;
      this.#exactKeys[target] = this.#exactKeys[slot]!;
      this.terms[target] = this.terms[slot]!;
      this.fieldLengths.copyWithin(
        target * FIELD_COUNT,
        slot * FIELD_COUNT,
        (slot + 1) * FIELD_COUNT,
      );
      this.contentHashes.copyWithin(
        target * CONTENT_HASH_WORDS,
        slot * CONTENT_HASH_WORDS,
        (slot + 1) * CONTENT_HASH_WORDS,
      );
    }
    this.alive.fill(0);
    this.alive.fill(1, 0, next);
    this.#ids.length = next;
    this.#descriptions.length = next;
    this.#exactKeys.length = next;
    this.terms.length = next;
    this.count = next;
    for (const [id, slot] of this.#slotById) this.#slotById.set(id, remap[slot]!);
    for (const [key, slots] of this.#slotsByExactKey) {
      this.#slotsByExactKey.set(
        key,
        typeof slots === 'number' ? remap[slots]! : slots.map((slot) => remap[slot]!),
      );
    }
    this.epoch++;
    return remap;
  }

  /**
   * Reads a snapshot's tools in place, for an empty table: nothing is done per tool.
   * @returns the capacity, in slots, it now has
   */
  restore(snapshot: DecodedSnapshot): number {
    const slots = snapshot.ids.length;
    const capacity = Math.max(this.alive.length, slots);
    this.alive = new Uint8Array(capacity);
    this.alive.fill(1, 0, slots);
    // Fresh memory is slow to touch the first time: borrow the snapshot's lengths where they fit.
    if (capacity === slots) {
      this.fieldLengths = snapshot.fieldLengths;
      this.#fieldLengthsBorrowed = true;
      this.contentHashes = snapshot.contentHashes;
      this.#contentHashesBorrowed = true;
    } else {
      this.fieldLengths = new Uint32Array(capacity * FIELD_COUNT);
      this.fieldLengths.set(snapshot.fieldLengths);
      this.contentHashes = new Uint32Array(capacity * CONTENT_HASH_WORDS);
      this.contentHashes.set(snapshot.contentHashes);
    }
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.fieldLengthSums[field] = snapshot.fieldLengthSums[field]!;
    }
    this.#restored = snapshot;
    this.#restoredCount = slots;
    this.count = slots;
    this.liveCount = slots;
    this.termsPending = slots > 0;
    this.epoch++;
    return capacity;
  }

  /**
   * Gives every restored slot its id and exact-match key in this table's own maps, before slots
   * are renumbered (the snapshot's tables know only the restored numbering).
   */
  #adoptRestored(): void {
    const restored = this.#restored;
    const count = this.#restoredCount;
    if (!restored || count === 0) return;
    this.coverRestored();
    // Restored ids come first in insertion order, as they were added first.
    const added = [...this.#slotById];
    this.#slotById.clear();
    for (let slot = 0; slot < count; slot++) {
      const id = restored.ids.at(slot);
      this.#ids[slot] = id;
      this.#exactKeys[slot] = id;
      if (this.alive[slot] === 0) continue;
      this.#slotById.set(id, slot);
      this.#descriptions[slot] ??= restored.description(slot);
    }
    for (let position = 0; position < restored.foldedKeySlots.length; position++) {
      const slot = restored.foldedKeySlots[position]!;
      const key = restored.foldedKeys.at(position);
      this.#exactKeys[slot] = key;
      if (this.alive[slot] === 1) this.#addFoldedKey(key, slot);
    }
    for (const [id, slot] of added) this.#slotById.set(id, slot);
    this.#restoredCount = 0;
  }

  #addFoldedKey(key: string, slot: number): void {
    const sameKey = this.#slotsByExactKey.get(key);
    if (sameKey === undefined) this.#slotsByExactKey.set(key, slot);
    else if (typeof sameKey === 'number') this.#slotsByExactKey.set(key, [sameKey, slot]);
    else sameKey.push(slot);
  }
}

/** The position of `value` in an ascending array, or `-1`. */
function sortedIndexOf(array: Uint32Array, value: number): number {
  let low = 0;
  let high = array.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = array[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
