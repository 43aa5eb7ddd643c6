import { Bm25fScorer } from './bm25f-scorer';
import { type IndexChanges, planIndexChanges } from './index-changes';
import { MAX_QUERY_LENGTH, type ParsedQuery, parseQuery } from './parsed-query';
import { PostingStore } from './posting-store';
import {
  type Candidate,
  type SearchableIndex,
  type SearchOptions,
  searchIndexes,
} from './search-indexes';
import { SlotTable } from './slot-table';
import type { DecodedSnapshot } from './snapshot-codec';
import { TermCounter } from './term-counter';
import { TermDictionary } from './term-dictionary';
import { TextTermCache } from './text-term-cache';
import type { Tokenizer } from './tokenizer';
import type { SearchHit, ToolDescriptor } from './tool-descriptor';
import { resolveIndexSettings, type ToolIndexOptions } from './tool-index-options';
import { readIndexSnapshot, writeIndexSnapshot } from './tool-index-snapshot';
import type { TopK } from './top-k';

export type { IndexChanges } from './index-changes';
export type { Candidate, SearchOptions } from './search-indexes';

/**
 * A ranked keyword index over tool descriptors: BM25F over the id's words, the description,
 * parameter names, parameter descriptions and keywords, plus ID-match boosts.
 *
 * Scoring is BM25F as in S. Robertson, H. Zaragoza and M. Taylor, "Simple BM25 extension to
 * multiple weighted fields" (CIKM 2004): per-field term frequencies are length-normalized
 * (`tf_f / (1 - b_f + b_f · len_f / avglen_f)`), weighted and summed into one pseudo-frequency
 * `tf~`, and a term scores `idf · tf~ / (k1 + tf~)`. The idf is the non-negative
 * `ln(1 + (N - df + 0.5) / (df + 0.5))` used by Lucene's BM25Similarity.
 *
 * The index is made of parts, each with one job: a {@link TermDictionary} gives terms their ids,
 * a {@link TextTermCache} turns texts into term ids, a {@link TermCounter} counts a tool's terms
 * per field, a {@link SlotTable} keeps the tools by slot, a {@link PostingStore} keeps the postings
 * by term, and a {@link Bm25fScorer} scores a query; `tool-index-snapshot.ts` writes and reads
 * snapshots. This class adds, removes and searches through them.
 *
 * @example
 * const index = new ToolIndex([{ id: 'get_weather', description: 'Current weather for a city' }]);
 * index.search('weather in Paris'); // [{ id: 'get_weather', score: 0.705..., description: '...' }]
 */
export class ToolIndex implements SearchableIndex {
  /** The options it was built with, for its snapshot. */
  readonly #options: ToolIndexOptions;
  readonly #tokenize: Tokenizer;
  readonly #slots = new SlotTable();
  readonly #postings = new PostingStore();
  readonly #terms: TermDictionary;
  readonly #texts: TextTermCache;
  readonly #counter: TermCounter;
  readonly #scorer: Bm25fScorer;

  /**
   * @param tools - tools to index; a later tool replaces an earlier one with the same id
   * @param options - tokenizer, field weights, BM25 parameters and ID boosts
   */
  constructor(tools?: Iterable<ToolDescriptor>, options: ToolIndexOptions = {}) {
    const settings = resolveIndexSettings(options);
    this.#options = { ...options };
    this.#tokenize = settings.tokenize;
    this.#terms = new TermDictionary((termId) => {
      this.#postings.addTerm(termId);
      this.#counter.reserveTerms(termId + 1);
    });
    this.#texts = new TextTermCache(this.#terms, settings.tokenize);
    this.#counter = new TermCounter(this.#texts);
    this.#scorer = new Bm25fScorer({
      settings,
      slots: this.#slots,
      postings: this.#postings,
      terms: this.#terms,
    });
    if (tools) this.#addAll(tools);
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.#slots.liveCount;
  }

  /** Whether a tool with this id is indexed. */
  has(id: string): boolean {
    return this.#slots.slotOf(id) !== undefined;
  }

  /** The indexed ids, in insertion order (a replaced tool moves to the end). */
  ids(): string[] {
    return this.#slots.ids();
  }

  /**
   * Indexes a tool, replacing any tool with the same id.
   * @param tool - the tool's id, description, input schema and keywords
   */
  add(tool: ToolDescriptor): void {
    if (typeof tool?.id !== 'string' || tool.id.length === 0) {
      throw new TypeError(
        `ToolIndex.add: a tool needs a non-empty string id, got ${describeValue(tool?.id)}`,
      );
    }
    this.remove(tool.id);
    const slots = this.#slots;
    slots.coverRestored();
    const counter = this.#counter;
    counter.count(tool);
    this.#reserveSlot();
    const slot = slots.add({
      id: tool.id,
      description: typeof tool.description === 'string' ? tool.description : '',
      lengths: counter.lengths,
      contentHash: counter.contentHash,
    });
    const { terms, counts, distinct } = counter;
    // A batch holds the slot's terms; they are derived from the lists at the first removal.
    const batched = this.#postings.add(slot, terms, counts, distinct);
    slots.terms[slot] = batched ? undefined : terms.slice(0, distinct);
  }

  /**
   * Removes a tool.
   * @param id - the tool's id
   * @returns whether a tool was removed
   */
  remove(id: string): boolean {
    const slots = this.#slots;
    const slot = slots.slotOf(id);
    if (slot === undefined) return false;
    if (slots.termsPending) this.#deriveSlotTerms();
    slots.coverRestored();
    this.#postings.remove(slots.terms[slot] ?? this.#postings.batchTermsOf(slot));
    slots.remove(id, slot);
    return true;
  }

  /**
   * Makes the index hold exactly these tools: indexes the new ones and those whose text differs
   * from what the index holds under their id, removes the ones not given, and leaves the rest as
   * they are. A tool's text is compared by a 64-bit content hash of everything it is ranked by
   * (id, description, input schema text, keywords), kept per tool and in snapshots. So an index
   * restored from a snapshot and synced with the catalog ranks exactly as a fresh index of the
   * catalog would, at the cost of indexing only what changed.
   * @param tools - the tools the index should hold; of two with the same id, the later counts
   * @returns the ids added, changed (indexed again) and removed
   * @throws TypeError for a tool without a non-empty string id (the index is then left unchanged)
   * @example
   * const index = ToolIndex.fromSnapshot(readFileSync('tools.index'));
   * const { added, changed, removed } = index.sync(descriptors);
   */
  sync(tools: Iterable<ToolDescriptor>): IndexChanges {
    const { changes, toIndex } = planIndexChanges(tools, this.#slots);
    for (const id of changes.removed) this.remove(id);
    for (const tool of toIndex) this.add(tool);
    return changes;
  }

  /**
   * Writes the index as bytes that {@link ToolIndex.fromSnapshot} restores without re-analyzing
   * any tool: build it at deploy time, load it at start-up. It carries a format version and the
   * ranking options (field weights, `b`, `k1`, ID boosts, tokenizer options), so it is never
   * restored into a different ranking.
   * @returns the snapshot; its size grows with the catalog (about 250 bytes per tool); it holds
   *   each tool's content hash, so {@link ToolIndex.sync} can tell what a catalog changed since
   * @throws SnapshotError when the index uses a tokenizer or stem function, which no snapshot can hold
   * @example
   * writeFileSync('tools.index', new ToolIndex(descriptors).toSnapshot());
   */
  toSnapshot(): Uint8Array {
    return writeIndexSnapshot({
      options: this.#options,
      slots: this.#slots,
      terms: this.#terms,
      postings: this.#postings,
    });
  }

  /**
   * Restores an index from {@link ToolIndex.toSnapshot}'s bytes, without analyzing any tool.
   * Searches rank exactly as on the index that wrote it, and `add` / `remove` keep working. When
   * the tools may have changed since the snapshot was written, {@link ToolIndex.sync} the index
   * with them (the engine's `snapshot` option does).
   * @param bytes - the snapshot
   * @param options - the ranking options you expect; omit them to use the snapshot's own. Options
   *   that rank differently from the snapshot's are refused, never silently applied.
   * @throws SnapshotError (`reason`): not a snapshot (`format`), another format version
   *   (`version`), damaged or truncated bytes (`corrupt`), other ranking options (`options`), or a
   *   tokenizer function, or a tokenizer here that splits text differently (`tokenizer`)
   * @example
   * const index = ToolIndex.fromSnapshot(readFileSync('tools.index'));
   */
  static fromSnapshot(bytes: Uint8Array, options?: ToolIndexOptions): ToolIndex {
    const restored = readIndexSnapshot(bytes, options);
    const index = new ToolIndex(undefined, restored.options);
    index.#restore(restored.snapshot);
    return index;
  }

  /**
   * Ranks the tools for a query, best first.
   * @param query - free text, a tool name, or both
   * @param options - `topK` (default 5), `minScore` (default 0) and a `filter`
   * @returns at most `topK` hits scoring above `minScore`, by score then id
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return searchIndexes([this], query, options);
  }

  /**
   * The words of a query that match no indexed tool (stop words excluded), as the query spells
   * them: what a catalog is missing, for telemetry.
   * @param query - the query as searched
   */
  unmatchedTerms(query: string): string[] {
    const unmatched: string[] = [];
    for (const word of String(query).slice(0, MAX_QUERY_LENGTH).split(/\s+/u)) {
      const terms = this.#tokenize(word);
      if (terms.length === 0) continue;
      if (!terms.some((term) => this.documentFrequency(term) > 0)) unmatched.push(word);
    }
    return unmatched;
  }

  /** @internal Parses a query with this index's tokenizer. */
  parseQuery(query: string): ParsedQuery {
    return parseQuery(query, this.#tokenize);
  }

  /** @internal Live documents containing `term` (an analyzed term). */
  documentFrequency(term: string): number {
    const termId = this.#terms.idOf(term);
    return termId === undefined ? 0 : this.#postings.documentFrequency(termId);
  }

  /**
   * @internal Scores this index's tools for a parsed query with the given idf per term (shared
   * across indexes searched together) and feeds the passing ones to `top`.
   */
  collect(
    query: ParsedQuery,
    idf: readonly number[],
    options: {
      minScore: number;
      filter: ((id: string) => boolean) | undefined;
      top: TopK<Candidate>;
    },
  ): void {
    this.#scorer.collect(query, idf, options);
  }

  /** @internal The description stored for a slot. */
  descriptionAt(slot: number): string {
    return this.#slots.descriptionAt(slot);
  }

  /**
   * Indexes many tools at once: the postings are collected as one batch (see
   * {@link PostingStore.beginBatch}) instead of growing every term's list tool by tool.
   */
  #addAll(tools: Iterable<ToolDescriptor>): void {
    const slots = this.#slots;
    const expected = Array.isArray(tools) ? tools.length : undefined;
    if (expected !== undefined && expected > slots.capacity && slots.count === 0) {
      // A fresh index given a list: every per-tool array is made at its size once.
      slots.reserve(expected);
      this.#scorer.resize(expected);
    }
    this.#postings.beginBatch(expected);
    try {
      for (const tool of tools) this.add(tool);
    } finally {
      this.#postings.endBatch(slots.alive);
      // Later adds are few: the word table is not worth its memory between them.
      this.#texts.dropWords();
      slots.termsPending = slots.count > 0;
    }
  }

  /** Makes room for one more slot: reclaims removed tools' slots, or grows the arrays. */
  #reserveSlot(): void {
    const slots = this.#slots;
    if (!slots.full) return;
    // Slots of removed tools are reclaimed by renumbering once they are most of the array.
    // Never during a batch: its postings hold slot numbers that compaction would change.
    if (!this.#postings.batching && slots.mostlyDead) {
      if (slots.termsPending) this.#deriveSlotTerms();
      this.#postings.renumber(slots.compact());
    }
    if (slots.full) {
      const capacity = slots.capacity * 2;
      slots.grow(capacity);
      this.#scorer.resize(capacity);
    }
  }

  /**
   * The distinct terms of each restored or batched tool, which `remove` needs: derived from the
   * posting lists at the first removal rather than stored in the snapshot or kept per tool.
   */
  #deriveSlotTerms(): void {
    const slots = this.#slots;
    slots.termsPending = false;
    slots.coverRestored();
    const wanted = new Uint8Array(slots.count);
    for (let slot = 0; slot < slots.count; slot++) {
      if (slots.terms[slot] === undefined) wanted[slot] = 1;
    }
    const derived = this.#postings.termsOfSlots(wanted, slots.alive);
    for (let slot = 0; slot < slots.count; slot++) {
      if (wanted[slot] === 1) slots.terms[slot] = derived[slot];
    }
  }

  /**
   * Fills an empty index from a decoded snapshot, in place: nothing is done per tool or per
   * term but counting each term's postings, so a restore costs little more than reading the bytes.
   */
  #restore(snapshot: DecodedSnapshot): void {
    this.#scorer.resize(this.#slots.restore(snapshot));
    this.#terms.restore(snapshot.terms);
    this.#postings.restore(snapshot);
    this.#counter.restoreTerms(snapshot.terms.length);
  }
}

function describeValue(value: unknown): string {
  return value === undefined ? 'undefined' : (JSON.stringify(value) ?? typeof value);
}
