import type { PostingStore } from './posting-store';
import type { SlotTable } from './slot-table';
import { type DecodedSnapshot, decodeSnapshot, encodeSnapshot } from './snapshot-codec';
import {
  describeRanking,
  rankingDifferences,
  SnapshotError,
  toIndexOptions,
} from './snapshot-ranking';
import type { TermDictionary } from './term-dictionary';
import { CONTENT_HASH_WORDS } from './tool-content-hash';
import { FIELD_COUNT, type ToolIndexOptions } from './tool-index-options';

/** Scripts the tokenizer hands to `Intl.Segmenter` (see `word-runs.ts`). */
const SEGMENTED_SCRIPT = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;

/** The parts of an index its snapshot is written from. */
export interface IndexParts {
  /** The options the index was built with. */
  options: ToolIndexOptions;
  slots: SlotTable;
  terms: TermDictionary;
  postings: PostingStore;
}

/**
 * @internal Writes an index's snapshot (see `ToolIndex.toSnapshot`): its live tools renumbered
 * densely in slot order, the terms that still have postings, and the ranking options.
 * @throws SnapshotError when the index uses a tokenizer or stem function
 */
export function writeIndexSnapshot(parts: IndexParts): Uint8Array {
  const { slots, postings } = parts;
  const ranking = describeRanking(parts.options, usesSegmenter(parts));
  const remap = new Int32Array(slots.count);
  const ids: string[] = [];
  const descriptions: string[] = [];
  const foldedKeys: string[] = [];
  const foldedSlots: number[] = [];
  const fieldLengths = new Uint32Array(slots.liveCount * FIELD_COUNT);
  const contentHashes = new Uint32Array(slots.liveCount * CONTENT_HASH_WORDS);
  for (let slot = 0; slot < slots.count; slot++) {
    if (slots.alive[slot] === 0) continue;
    const target = ids.length;
    remap[slot] = target;
    const id = slots.idAt(slot);
    ids.push(id);
    descriptions.push(slots.descriptionAt(slot));
    const exactKey = slots.exactKeyAt(slot);
    if (exactKey !== id) {
      foldedKeys.push(exactKey);
      foldedSlots.push(target);
    }
    for (let field = 0; field < FIELD_COUNT; field++) {
      fieldLengths[target * FIELD_COUNT + field] = slots.fieldLengths[slot * FIELD_COUNT + field]!;
    }
    for (let word = 0; word < CONTENT_HASH_WORDS; word++) {
      contentHashes[target * CONTENT_HASH_WORDS + word] =
        slots.contentHashes[slot * CONTENT_HASH_WORDS + word]!;
    }
  }
  const termById = parts.terms.terms();
  const terms: string[] = [];
  const kept: number[] = [];
  let postingCount = 0;
  for (let termId = 0; termId < postings.termCount; termId++) {
    const frequency = postings.documentFrequency(termId);
    if (frequency === 0) continue;
    terms.push(termById[termId]!);
    kept.push(termId);
    postingCount += frequency;
  }
  const postingOffsets = new Uint32Array(terms.length + 1);
  const postingSlots = new Int32Array(postingCount);
  const postingFrequencies = new Uint8Array(postingCount * FIELD_COUNT);
  let at = 0;
  for (let term = 0; term < kept.length; term++) {
    const posting = postings.listOf(kept[term]!);
    for (let position = 0; position < posting.length; position++) {
      const slot = posting.slots[position]!;
      if (slots.alive[slot] === 0) continue;
      postingSlots[at] = remap[slot]!;
      postingFrequencies.set(
        posting.frequencies.subarray(position * FIELD_COUNT, (position + 1) * FIELD_COUNT),
        at * FIELD_COUNT,
      );
      at++;
    }
    postingOffsets[term + 1] = at;
  }
  return encodeSnapshot({
    ranking,
    ids,
    descriptions,
    foldedKeys,
    foldedKeySlots: Uint32Array.from(foldedSlots),
    terms,
    fieldLengths,
    contentHashes,
    postingOffsets,
    postingSlots,
    postingFrequencies,
  });
}

/**
 * @internal Reads a snapshot for `ToolIndex.fromSnapshot`, refusing ranking options other than
 * the snapshot's and a tokenizer here that splits text differently from the one that wrote it.
 * @returns the decoded snapshot and the options to build the restored index with
 * @throws SnapshotError
 */
export function readIndexSnapshot(
  bytes: Uint8Array,
  options: ToolIndexOptions | undefined,
): { snapshot: DecodedSnapshot; options: ToolIndexOptions } {
  const snapshot = decodeSnapshot(bytes);
  const { ranking } = snapshot;
  if (options !== undefined) {
    const differences = rankingDifferences(ranking, describeRanking(options));
    if (differences.length > 0) {
      throw new SnapshotError(
        'options',
        `ToolIndex.fromSnapshot: the snapshot was built with other ranking options (${differences.join('; ')}). ` +
          'Pass the options it was built with, or none to use its own, or rebuild it.',
      );
    }
  }
  const restoredOptions = toIndexOptions(ranking);
  if (describeRanking(restoredOptions, ranking.segmenter).analyzer !== ranking.analyzer) {
    throw new SnapshotError(
      'tokenizer',
      'ToolIndex.fromSnapshot: the tokenizer here splits text differently from the one that wrote the snapshot ' +
        '(another version of tool-search-core, or a Node.js with other Unicode data). Rebuild the snapshot with what you run.',
    );
  }
  return { snapshot, options: restoredOptions };
}

/**
 * Whether `Intl.Segmenter` decided some of the index's terms: CJK segmentation other than
 * bigrams, or a term in a script only the segmenter splits (Thai, Lao, Myanmar, Khmer).
 */
function usesSegmenter(parts: IndexParts): boolean {
  const { tokenizer } = parts.options;
  const cjk = typeof tokenizer === 'object' ? tokenizer.cjk : undefined;
  if (cjk !== undefined && cjk !== 'bigram') return true;
  return parts.terms.someWord((term) => SEGMENTED_SCRIPT.test(term));
}
