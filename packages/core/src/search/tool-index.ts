import { MAX_QUERY_LENGTH, type ParsedQuery, parseQuery, toExactKey } from './parsed-query';
import {
  createPostingList,
  PendingPostings,
  type PostingBlock,
  type PostingList,
  postingAppend,
  postingCompact,
  postingListIn,
  postingListOf,
} from './posting-list';
import { searchIndexes } from './search-indexes';
import { type DecodedSnapshot, decodeSnapshot, encodeSnapshot } from './snapshot-codec';
import {
  describeRanking,
  rankingDifferences,
  SnapshotError,
  toIndexOptions,
} from './snapshot-ranking';
import { stringHash } from './snapshot-strings';
import { type TermScanner, type TermSink, type Tokenizer, termScannerOf } from './tokenizer';
import { forEachSchemaText, type SearchHit, type ToolDescriptor } from './tool-descriptor';
import { FIELD_COUNT, resolveIndexSettings, type ToolIndexOptions } from './tool-index-options';
import type { TopK } from './top-k';

/** Options of {@link ToolIndex.search}. */
export interface SearchOptions {
  /**
   * How many hits to return at most.
   * @default 5
   */
  topK?: number;
  /**
   * Hits scoring at or below this are dropped.
   * @default 0
   */
  minScore?: number;
  /** Keeps only the tools it returns `true` for; a filter that throws excludes the tool. */
  filter?: (id: string) => boolean;
}

/** Term frequencies are counted up to this per field; more repeats add nothing to BM25 anyway. */
const MAX_TERM_FREQUENCY = 255;
/** Scripts the tokenizer hands to `Intl.Segmenter` (see `word-runs.ts`). */
const SEGMENTED_SCRIPT = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;
/** Initial size of the block the cached texts' term ids are written to (256 kB). */
const TERM_POOL_SIZE = 65_536;
/** Distinct field texts whose term ids are remembered; past it the cache starts over. */
const MAX_CACHED_TEXTS = 50_000;
/** Distinct ASCII words whose term ids are kept; the table starts over past this. */
const MAX_CACHED_WORDS = 50_000;
const FIELD = {
  id: 0,
  description: 1,
  parameters: 2,
  parameterDescriptions: 3,
  keywords: 4,
} as const;
/** A scored tool of one index, before descriptions are looked up. */
export interface Candidate {
  id: string;
  score: number;
  slot: number;
}

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
 * @example
 * const index = new ToolIndex([{ id: 'get_weather', description: 'Current weather for a city' }]);
 * index.search('weather in Paris'); // [{ id: 'get_weather', score: 0.705..., description: '...' }]
 */
export class ToolIndex {
  /** The options it was built with, for its snapshot. */
  readonly #options: ToolIndexOptions;
  readonly #tokenize: Tokenizer;
  readonly #fieldWeights: Float64Array;
  readonly #fieldB: Float64Array;
  readonly #k1: number;
  readonly #exactBoost: number;
  readonly #wordBoost: number;

  readonly #slotById = new Map<string, number>();
  /**
   * Slots by exact-match key, for the tools whose key is not their id as is (most ids already
   * are their key: those are found through `#slotById`). One slot is kept as a number, several
   * (ids that differ only in case or separators) as an array.
   */
  readonly #slotsByExactKey = new Map<string, number | number[]>();
  readonly #termIds = new Map<string, number>();
  /**
   * Posting lists by term id; `undefined` until first used for a term whose postings are in
   * `#built` or `#restored` (made over their arrays then), or that has none yet.
   */
  #postings: (PostingList | undefined)[] = [];
  /** The constructor's postings, grouped by term; each term's list is made on first use. */
  #built: PostingBlock | undefined;
  /** Live documents containing each term. */
  #documentFrequency = new Int32Array(64);

  // Per-slot arrays. A restored index leaves them empty until its first change (see
  // `#coverRestoredSlots`): restored slots are read from the snapshot.
  #ids: string[] = [];
  /** Descriptions by slot; a restored tool's is decoded from its snapshot when asked for. */
  #descriptions: (string | undefined)[] = [];
  #exactKeys: string[] = [];
  #alive = new Uint8Array(64);
  /** Field lengths (term counts), `FIELD_COUNT` per slot. */
  #fieldLengths: Uint32Array = new Uint32Array(64 * FIELD_COUNT);
  /** `#fieldLengths` is a view of a snapshot's bytes: copy it before writing in place. */
  #fieldLengthsBorrowed = false;
  /** Distinct term ids of each slot, for removal; `undefined` until derived (see `#slotTermsPending`). */
  #slotTerms: (Int32Array | undefined)[] = [];
  #slotCount = 0;
  #liveCount = 0;
  readonly #fieldLengthSums = new Float64Array(FIELD_COUNT);
  /** Bumped on every change; cached pseudo-frequencies of an older epoch are stale. */
  #epoch = 0;

  #scores = new Float64Array(64);
  #touched = new Int32Array(64);
  #scoring = false;

  /** Scratch for `add`: per term, the add that last saw it and its position in that add. */
  #seenAt = new Int32Array(64);
  #localIndex = new Int32Array(64);
  #localTerms = new Int32Array(256);
  #localCounts = new Uint8Array(256 * FIELD_COUNT);
  #addCount = 0;
  /** The tool being added: its add's stamp, its distinct terms so far, its first field length. */
  #stamp = 0;
  #distinct = 0;
  #lengthBase = 0;
  /** Cached texts: where their term ids are in `#pool`. */
  readonly #textCache = new Map<string, number>();
  /** The term ids of cached texts, each list after its length; grown by doubling. */
  #pool = new Int32Array(0);
  #poolUsed = 0;
  /** The default tokenizer's scan, when it is the tokenizer: terms come without an array. */
  readonly #scanTerms: TermScanner | undefined;
  /** Where the text being analyzed writes its term ids: after `#pool[#textStart]`, `#textTerms` so far. */
  #textStart = 0;
  #textTerms = 0;
  readonly #termSink: TermSink = {
    term: (term) => this.#writeTerm(this.#internTerm(term)),
    hanBigram: (text, at) => this.#writeTerm(this.#internBigram(text, at)),
    word: (text, start, end, analyze) => {
      const at = this.#wordTermsOf(text, start, end, analyze);
      const wordPool = this.#wordPool;
      const count = wordPool[at]!;
      for (let position = at + 1; position <= at + count; position++) {
        this.#writeTerm(wordPool[position]!);
      }
    },
  };
  /**
   * The term ids of ASCII words by their characters, open addressing on a hash of them: ids and
   * parameter names are made of a few thousand words, each read many times, and finding one
   * here takes no string and no map. `#wordSlots` holds 1 + the word's number in `#words`
   * (0 is empty); the word's ids are at `#wordStarts[number]` in `#wordPool`, after their count.
   */
  #wordHashes = new Int32Array(0);
  #wordSlots = new Int32Array(0);
  #words: string[] = [];
  #wordStarts: number[] = [];
  #wordPool = new Int32Array(0);
  #wordPoolUsed = 0;
  /**
   * The term ids of Han bigrams (two CJK Unified Ideographs), by their {@link bigramKey}, open
   * addressing (key 0 is empty). A Chinese catalog has tens of thousands of them, each seen many
   * times: they are found without making a string, and kept here instead of in `#termIds`.
   */
  #bigramKeys = new Int32Array(0);
  #bigramTerms = new Int32Array(0);
  #bigramCount = 0;
  /** Postings collected by the constructor, written into `#built` when it is done. */
  #pending: PendingPostings | undefined;
  /** Restored slots whose term lists (needed only by `remove`) are not derived yet. */
  #slotTermsPending = false;
  /**
   * The snapshot this index was restored from, read in place: restored ids, exact-match keys and
   * terms are found through its lookup tables, and posting lists are made on first use.
   */
  #restored: DecodedSnapshot | undefined;
  /** Slots below this were restored and take their ids and keys from `#restored` (0 once renumbered). */
  #restoredSlots = 0;
  /** Term ids below this were restored: `#termIds` and the bigram table hold only the terms used since. */
  #restoredTerms = 0;

  /**
   * @param tools - tools to index; a later tool replaces an earlier one with the same id
   * @param options - tokenizer, field weights, BM25 parameters and ID boosts
   */
  constructor(tools?: Iterable<ToolDescriptor>, options: ToolIndexOptions = {}) {
    const settings = resolveIndexSettings(options);
    this.#options = { ...options };
    this.#tokenize = settings.tokenize;
    this.#scanTerms = termScannerOf(settings.tokenize);
    this.#fieldWeights = settings.fieldWeights;
    this.#fieldB = settings.fieldB;
    this.#k1 = settings.k1;
    this.#exactBoost = settings.exactBoost;
    this.#wordBoost = settings.wordBoost;
    if (tools) this.#addAll(tools);
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.#liveCount;
  }

  /** Whether a tool with this id is indexed. */
  has(id: string): boolean {
    return this.#slotOf(id) !== undefined;
  }

  /** The indexed ids, in insertion order (a replaced tool moves to the end). */
  ids(): string[] {
    const ids: string[] = [];
    for (let slot = 0; slot < this.#restoredSlots; slot++) {
      if (this.#alive[slot] === 1) ids.push(this.#idAt(slot));
    }
    for (const id of this.#slotById.keys()) ids.push(id);
    return ids;
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
    this.#coverRestoredSlots();
    const slot = this.#allocateSlot();
    const lengthBase = slot * FIELD_COUNT;
    this.#fieldLengths.fill(0, lengthBase, lengthBase + FIELD_COUNT);
    this.#stamp = ++this.#addCount;
    this.#distinct = 0;
    this.#lengthBase = lengthBase;
    // Each text is counted as it is found: no list of the tool's texts or terms is built.
    this.#countText(tool.id, FIELD.id, false);
    if (typeof tool.description === 'string')
      this.#countText(tool.description, FIELD.description, true);
    forEachSchemaText(tool.inputSchema, this.#countSchemaText);
    if (Array.isArray(tool.keywords)) {
      for (const keyword of tool.keywords) {
        if (typeof keyword === 'string') this.#countText(keyword, FIELD.keywords, true);
      }
    }
    const distinct = this.#distinct;
    const localTerms = this.#localTerms;
    const localCounts = this.#localCounts;
    const pending = this.#pending;
    const documentFrequency = this.#documentFrequency;
    if (pending) {
      pending.appendAll(localTerms, localCounts, distinct);
      for (let local = 0; local < distinct; local++) documentFrequency[localTerms[local]!]!++;
    } else {
      for (let local = 0; local < distinct; local++) {
        const termId = localTerms[local]!;
        postingAppend(this.#postingAt(termId), slot, localCounts, local * FIELD_COUNT);
        documentFrequency[termId]!++;
      }
    }
    if (pending) {
      // The buffer holds the slot's terms; they are derived from the lists at the first removal.
      pending.endSlot(slot);
      this.#slotTerms[slot] = undefined;
    } else {
      this.#slotTerms[slot] = localTerms.slice(0, distinct);
    }
    this.#ids[slot] = tool.id;
    this.#descriptions[slot] = typeof tool.description === 'string' ? tool.description : '';
    const exactKey = toExactKey(tool.id);
    this.#exactKeys[slot] = exactKey;
    if (exactKey !== tool.id) this.#addFoldedKey(exactKey, slot);
    this.#alive[slot] = 1;
    this.#slotById.set(tool.id, slot);
    this.#liveCount++;
    this.#epoch++;
  }

  /**
   * Removes a tool.
   * @param id - the tool's id
   * @returns whether a tool was removed
   */
  remove(id: string): boolean {
    const slot = this.#slotOf(id);
    if (slot === undefined) return false;
    if (this.#slotTermsPending) this.#deriveSlotTerms();
    this.#coverRestoredSlots();
    this.#slotById.delete(id);
    this.#alive[slot] = 0;
    const pending = this.#pending;
    for (const termId of this.#slotTerms[slot] ?? pending!.termsOf(slot)) {
      this.#documentFrequency[termId]!--;
      // Pending postings of removed slots are dropped by the flush.
      if (!pending) this.#postingAt(termId).dead++;
    }
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.#fieldLengthSums[field]! -= this.#fieldLengths[slot * FIELD_COUNT + field]!;
    }
    // A restored slot's key stays in the snapshot's table, where a dead slot is skipped.
    const exactKey = this.#exactKeyAt(slot);
    if (exactKey !== id && slot >= this.#restoredSlots) {
      const sameKey = this.#slotsByExactKey.get(exactKey)!;
      const others = typeof sameKey === 'number' ? [] : sameKey.filter((other) => other !== slot);
      if (others.length === 0) this.#slotsByExactKey.delete(exactKey);
      else this.#slotsByExactKey.set(exactKey, others.length === 1 ? others[0]! : others);
    }
    this.#slotTerms[slot] = new Int32Array(0);
    this.#descriptions[slot] = '';
    this.#liveCount--;
    this.#epoch++;
    return true;
  }

  /**
   * Writes the index as bytes that {@link ToolIndex.fromSnapshot} restores without re-analyzing
   * any tool: build it at deploy time, load it at start-up. It carries a format version and the
   * ranking options (field weights, `b`, `k1`, ID boosts, tokenizer options), so it is never
   * restored into a different ranking.
   * @returns the snapshot; its size grows with the catalog (about 250 bytes per tool)
   * @throws SnapshotError when the index uses a tokenizer or stem function, which no snapshot can hold
   * @example
   * writeFileSync('tools.index', new ToolIndex(descriptors).toSnapshot());
   */
  toSnapshot(): Uint8Array {
    const ranking = describeRanking(this.#options, this.#usesSegmenter());
    const remap = new Int32Array(this.#slotCount);
    const ids: string[] = [];
    const descriptions: string[] = [];
    const foldedKeys: string[] = [];
    const foldedSlots: number[] = [];
    const fieldLengths = new Uint32Array(this.#liveCount * FIELD_COUNT);
    for (let slot = 0; slot < this.#slotCount; slot++) {
      if (this.#alive[slot] === 0) continue;
      const target = ids.length;
      remap[slot] = target;
      const id = this.#idAt(slot);
      ids.push(id);
      descriptions.push(this.descriptionAt(slot));
      const exactKey = this.#exactKeyAt(slot);
      if (exactKey !== id) {
        foldedKeys.push(exactKey);
        foldedSlots.push(target);
      }
      for (let field = 0; field < FIELD_COUNT; field++) {
        fieldLengths[target * FIELD_COUNT + field] =
          this.#fieldLengths[slot * FIELD_COUNT + field]!;
      }
    }
    const termById: string[] = new Array(this.#postings.length);
    for (let termId = 0; termId < this.#restoredTerms; termId++) {
      termById[termId] = this.#restored!.terms.at(termId);
    }
    for (const [term, termId] of this.#termIds) termById[termId] = term;
    for (let at = 0; at < this.#bigramKeys.length; at++) {
      const key = this.#bigramKeys[at]!;
      if (key !== 0) termById[this.#bigramTerms[at]!] = bigramOf(key);
    }
    const terms: string[] = [];
    const kept: number[] = [];
    let postings = 0;
    for (let termId = 0; termId < this.#postings.length; termId++) {
      const frequency = this.#documentFrequency[termId]!;
      if (frequency === 0) continue;
      terms.push(termById[termId]!);
      kept.push(termId);
      postings += frequency;
    }
    const postingOffsets = new Uint32Array(terms.length + 1);
    const postingSlots = new Int32Array(postings);
    const postingFrequencies = new Uint8Array(postings * FIELD_COUNT);
    let at = 0;
    for (let term = 0; term < kept.length; term++) {
      const posting = this.#postingAt(kept[term]!);
      for (let position = 0; position < posting.length; position++) {
        const slot = posting.slots[position]!;
        if (this.#alive[slot] === 0) continue;
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
      postingOffsets,
      postingSlots,
      postingFrequencies,
    });
  }

  /**
   * Whether `Intl.Segmenter` decided some of this index's terms: CJK segmentation other than
   * bigrams, or a term in a script only the segmenter splits (Thai, Lao, Myanmar, Khmer).
   */
  #usesSegmenter(): boolean {
    const cjk =
      typeof this.#options.tokenizer === 'object' ? this.#options.tokenizer.cjk : undefined;
    if (cjk !== undefined && cjk !== 'bigram') return true;
    const segmented = (term: string): boolean => SEGMENTED_SCRIPT.test(term);
    for (let termId = 0; termId < this.#restoredTerms; termId++) {
      if (segmented(this.#restored!.terms.at(termId))) return true;
    }
    for (const term of this.#termIds.keys()) if (segmented(term)) return true;
    return false;
  }

  /**
   * Restores an index from {@link ToolIndex.toSnapshot}'s bytes, without analyzing any tool.
   * Searches rank exactly as on the index that wrote it, and `add` / `remove` keep working.
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
    const contents = decodeSnapshot(bytes);
    const { ranking } = contents;
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
    const index = new ToolIndex(undefined, restoredOptions);
    index.#restore(contents);
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
    const termId = this.#termIdOf(term);
    return termId === undefined ? 0 : this.#documentFrequency[termId]!;
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
    const reentrant = this.#scoring;
    const scores = reentrant ? new Float64Array(this.#slotCount) : this.#scores;
    const touched = reentrant ? new Int32Array(this.#slotCount) : this.#touched;
    this.#scoring = true;
    try {
      let touchedCount = 0;
      for (let index = 0; index < query.terms.length; index++) {
        const termId = this.#termIdOf(query.terms[index]!);
        if (termId === undefined || this.#documentFrequency[termId] === 0) continue;
        touchedCount = this.#scoreTerm(termId, idf[index]!, scores, touched, touchedCount);
      }
      if (this.#exactBoost !== 0) {
        for (const key of query.exactKeys) {
          const direct = this.#slotOf(key);
          if (direct !== undefined && this.#exactKeyAt(direct) === key) {
            if (scores[direct] === 0) touched[touchedCount++] = direct;
            scores[direct]! += this.#exactBoost;
          }
          const sameKey = this.#slotsByExactKey.get(key);
          if (typeof sameKey === 'number') {
            if (scores[sameKey] === 0) touched[touchedCount++] = sameKey;
            scores[sameKey]! += this.#exactBoost;
          } else if (sameKey !== undefined) {
            for (const slot of sameKey) {
              if (scores[slot] === 0) touched[touchedCount++] = slot;
              scores[slot]! += this.#exactBoost;
            }
          }
          if (this.#restoredSlots > 0) {
            const { foldedKeys, foldedKeySlots } = this.#restored!;
            foldedKeys.forEachIndex(key, (position) => {
              const slot = foldedKeySlots[position]!;
              if (slot >= this.#restoredSlots || this.#alive[slot] === 0) return;
              if (scores[slot] === 0) touched[touchedCount++] = slot;
              scores[slot]! += this.#exactBoost;
            });
          }
        }
      }
      const { minScore, filter, top } = options;
      // Most candidates score below the current k-th best: compare numbers before touching ids.
      let threshold = top.threshold();
      for (let position = 0; position < touchedCount; position++) {
        const slot = touched[position]!;
        const score = scores[slot]!;
        scores[slot] = 0;
        if (!(score > minScore) || score < threshold) continue;
        const id = this.#idAt(slot);
        if (!top.accepts(score, id)) continue;
        if (filter && !passes(filter, id)) continue;
        top.push({ id, score, slot });
        threshold = top.threshold();
      }
    } finally {
      if (!reentrant) this.#scoring = false;
    }
  }

  /** @internal The description stored for a slot. */
  descriptionAt(slot: number): string {
    const description = this.#descriptions[slot];
    if (description !== undefined) return description;
    return slot < this.#restoredSlots ? this.#restored!.description(slot) : '';
  }

  /** Adds one term's contribution to `scores`; returns the new count of touched slots. */
  #scoreTerm(
    termId: number,
    idf: number,
    scores: Float64Array,
    touched: Int32Array,
    touchedCount: number,
  ): number {
    const posting = this.#postingAt(termId);
    if (posting.dead > posting.length / 2) postingCompact(posting, this.#alive);
    if (posting.epoch !== this.#epoch) this.#weigh(posting);
    const { slots, weights, bonuses, length } = posting;
    let count = touchedCount;
    if (posting.dead === 0) {
      for (let position = 0; position < length; position++) {
        const slot = slots[position]!;
        if (scores[slot] === 0) touched[count++] = slot;
        scores[slot]! += idf * weights[position]! + bonuses[position]!;
      }
      return count;
    }
    const alive = this.#alive;
    for (let position = 0; position < length; position++) {
      const slot = slots[position]!;
      if (alive[slot] === 0) continue;
      if (scores[slot] === 0) touched[count++] = slot;
      scores[slot]! += idf * weights[position]! + bonuses[position]!;
    }
    return count;
  }

  /** Recomputes a posting list's saturated pseudo-frequencies for the current average lengths. */
  #weigh(posting: PostingList): void {
    const averages = new Float64Array(FIELD_COUNT);
    for (let field = 0; field < FIELD_COUNT; field++) {
      averages[field] = this.#liveCount > 0 ? this.#fieldLengthSums[field]! / this.#liveCount : 0;
    }
    if (posting.weights.length < posting.length) {
      posting.weights = new Float32Array(posting.slots.length);
      posting.bonuses = new Float32Array(posting.slots.length);
    }
    const { slots, weights, bonuses, frequencies } = posting;
    for (let position = 0; position < posting.length; position++) {
      const slot = slots[position]!;
      let weight = 0;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const frequency = frequencies[position * FIELD_COUNT + field]!;
        if (frequency === 0) continue;
        const average = averages[field]!;
        const b = this.#fieldB[field]!;
        const length = this.#fieldLengths[slot * FIELD_COUNT + field]!;
        const norm = average > 0 ? 1 - b + (b * length) / average : 1;
        weight += (this.#fieldWeights[field]! * frequency) / norm;
      }
      // Cache the saturated frequency tf~ / (k1 + tf~): a search then costs one multiply by idf.
      weights[position] = weight / (this.#k1 + weight);
      // ID-word boost: the term is one of the id's words (field 0 holds the id's words).
      bonuses[position] = frequencies[position * FIELD_COUNT]! > 0 ? this.#wordBoost : 0;
    }
    posting.epoch = this.#epoch;
  }

  /**
   * Fills an empty index from a decoded snapshot, in place: nothing is done per tool or per
   * term but counting each term's postings, so a restore costs little more than reading the bytes.
   */
  #restore(snapshot: DecodedSnapshot): void {
    const slots = snapshot.ids.length;
    const terms = snapshot.terms.length;
    const capacity = Math.max(this.#alive.length, slots);
    this.#alive = new Uint8Array(capacity);
    this.#alive.fill(1, 0, slots);
    // Fresh memory is slow to touch the first time: borrow the snapshot's lengths where they fit.
    if (capacity === slots) {
      this.#fieldLengths = snapshot.fieldLengths;
      this.#fieldLengthsBorrowed = true;
    } else {
      this.#fieldLengths = new Uint32Array(capacity * FIELD_COUNT);
      this.#fieldLengths.set(snapshot.fieldLengths);
    }
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.#fieldLengthSums[field] = snapshot.fieldLengthSums[field]!;
    }
    this.#scores = new Float64Array(capacity);
    this.#touched = new Int32Array(capacity);
    const termCapacity = Math.max(this.#documentFrequency.length, terms);
    this.#documentFrequency = new Int32Array(termCapacity);
    this.#seenAt = new Int32Array(termCapacity);
    this.#localIndex = new Int32Array(termCapacity);
    const offsets = snapshot.postingOffsets;
    for (let termId = 0; termId < terms; termId++) {
      this.#documentFrequency[termId] = offsets[termId + 1]! - offsets[termId]!;
    }
    this.#postings = new Array(terms);
    this.#restored = snapshot;
    this.#restoredSlots = slots;
    this.#restoredTerms = terms;
    this.#slotCount = slots;
    this.#liveCount = slots;
    this.#slotTermsPending = slots > 0;
    this.#epoch++;
  }

  /**
   * Sizes the per-slot arrays of a restored index to its restored slots, before the first write
   * to them (an add, a removal); until then restored slots are read from the snapshot.
   */
  #coverRestoredSlots(): void {
    const count = this.#restoredSlots;
    if (this.#ids.length >= count) return;
    // Nothing was written yet: every write calls this first. `new Array(n)` keeps fast elements.
    this.#ids = new Array(count);
    this.#exactKeys = new Array(count);
    this.#descriptions = new Array(count);
    this.#slotTerms = new Array(count);
  }

  /** The id of a slot (a restored one is decoded from the snapshot on first use). */
  #idAt(slot: number): string {
    return slot < this.#restoredSlots ? this.#restored!.ids.at(slot) : this.#ids[slot]!;
  }

  /** The live slot of an id, or `undefined`. */
  #slotOf(id: string): number | undefined {
    const slot = this.#slotById.get(id);
    if (slot !== undefined || this.#restoredSlots === 0) return slot;
    const restored = this.#restored!.ids.indexOf(id);
    return restored >= 0 && restored < this.#restoredSlots && this.#alive[restored] === 1
      ? restored
      : undefined;
  }

  /** The exact-match key of a slot: its id, or the folded form the snapshot or `add` recorded. */
  #exactKeyAt(slot: number): string {
    if (slot >= this.#restoredSlots) return this.#exactKeys[slot]!;
    const { foldedKeySlots, foldedKeys } = this.#restored!;
    const position = sortedIndexOf(foldedKeySlots, slot);
    return position < 0 ? this.#idAt(slot) : foldedKeys.at(position);
  }

  /** The id of a term, or `undefined` when no tool ever had it. */
  #termIdOf(term: string): number | undefined {
    const key = bigramKeyOf(term);
    let termId: number | undefined;
    if (key === 0) {
      termId = this.#termIds.get(term);
    } else {
      const probe = this.#bigramProbe(key);
      if (this.#bigramKeys[probe] === key) termId = this.#bigramTerms[probe];
    }
    if (termId !== undefined || this.#restoredTerms === 0) return termId;
    const restored = this.#restored!.terms.indexOf(term);
    return restored < 0 ? undefined : restored;
  }

  /**
   * The posting list of a term, made on first use: over the snapshot's arrays for a restored
   * term, over the constructor's block for a term it indexed, empty for a new one.
   */
  #postingAt(termId: number): PostingList {
    let posting = this.#postings[termId];
    if (posting === undefined) {
      if (termId < this.#restoredTerms) {
        const { slots, frequencies, length } = this.#restored!.postingsOf(termId);
        posting = postingListOf(slots, frequencies, length);
      } else if (this.#built !== undefined && termId < this.#built.terms) {
        posting = postingListIn(this.#built, termId);
      } else {
        posting = createPostingList();
      }
      this.#postings[termId] = posting;
    }
    return posting;
  }

  /**
   * Gives every restored slot its id and exact-match key in this index's own maps, before slots
   * are renumbered (the snapshot's tables know only the restored numbering).
   */
  #adoptRestoredSlots(): void {
    const restored = this.#restored;
    const count = this.#restoredSlots;
    if (!restored || count === 0) return;
    this.#coverRestoredSlots();
    // Restored ids come first in insertion order, as they were added first.
    const added = [...this.#slotById];
    this.#slotById.clear();
    for (let slot = 0; slot < count; slot++) {
      const id = restored.ids.at(slot);
      this.#ids[slot] = id;
      this.#exactKeys[slot] = id;
      if (this.#alive[slot] === 0) continue;
      this.#slotById.set(id, slot);
      this.#descriptions[slot] ??= restored.description(slot);
    }
    for (let position = 0; position < restored.foldedKeySlots.length; position++) {
      const slot = restored.foldedKeySlots[position]!;
      const key = restored.foldedKeys.at(position);
      this.#exactKeys[slot] = key;
      if (this.#alive[slot] === 1) this.#addFoldedKey(key, slot);
    }
    for (const [id, slot] of added) this.#slotById.set(id, slot);
    this.#restoredSlots = 0;
  }

  #addFoldedKey(key: string, slot: number): void {
    const sameKey = this.#slotsByExactKey.get(key);
    if (sameKey === undefined) this.#slotsByExactKey.set(key, slot);
    else if (typeof sameKey === 'number') this.#slotsByExactKey.set(key, [sameKey, slot]);
    else sameKey.push(slot);
  }

  /**
   * The distinct terms of each restored tool, which `remove` needs: derived from the posting
   * lists at the first removal rather than stored in the snapshot or built at start-up.
   */
  #deriveSlotTerms(): void {
    this.#slotTermsPending = false;
    this.#coverRestoredSlots();
    const pending = new Uint8Array(this.#slotCount);
    const counts = new Int32Array(this.#slotCount);
    for (let slot = 0; slot < this.#slotCount; slot++) {
      if (this.#slotTerms[slot] === undefined) pending[slot] = 1;
    }
    const eachPending = (visit: (termId: number, slot: number) => void): void => {
      for (let termId = 0; termId < this.#postings.length; termId++) {
        const posting = this.#postingAt(termId);
        for (let position = 0; position < posting.length; position++) {
          const slot = posting.slots[position]!;
          if (pending[slot] === 1 && this.#alive[slot] === 1) visit(termId, slot);
        }
      }
    };
    eachPending((_termId, slot) => {
      counts[slot]!++;
    });
    for (let slot = 0; slot < this.#slotCount; slot++) {
      if (pending[slot] === 1) this.#slotTerms[slot] = new Int32Array(counts[slot]!);
    }
    counts.fill(0);
    eachPending((termId, slot) => {
      this.#slotTerms[slot]![counts[slot]!++] = termId;
    });
  }

  /** Counts a schema text of the tool being added (bound once: it is called for every text). */
  readonly #countSchemaText = (text: string, isName: boolean): void => {
    this.#countText(text, isName ? FIELD.parameters : FIELD.parameterDescriptions, true);
  };

  /** Adds a text's terms to the counts of the tool being added (`#stamp`, `#distinct`, `#lengthBase`). */
  #countText(text: string, field: number, cacheable: boolean): void {
    const start = this.#termIdsOf(text, cacheable);
    const termIds = this.#pool;
    const occurrences = termIds[start]!;
    this.#fieldLengths[this.#lengthBase + field]! += occurrences;
    this.#fieldLengthSums[field]! += occurrences;
    // Read after #termIdsOf: interning new terms may have grown these arrays.
    const seenAt = this.#seenAt;
    const localIndex = this.#localIndex;
    const stamp = this.#stamp;
    let distinct = this.#distinct;
    // A text adds at most `occurrences` new terms.
    if (distinct + occurrences > this.#localTerms.length) this.#growScratch(distinct + occurrences);
    const localTerms = this.#localTerms;
    const localCounts = this.#localCounts;
    for (let position = start + 1; position <= start + occurrences; position++) {
      const termId = termIds[position]!;
      let local: number;
      if (seenAt[termId] === stamp) {
        local = localIndex[termId]!;
      } else {
        seenAt[termId] = stamp;
        local = distinct++;
        localIndex[termId] = local;
        localTerms[local] = termId;
        const base = local * FIELD_COUNT;
        for (let other = 0; other < FIELD_COUNT; other++) localCounts[base + other] = 0;
      }
      const at = local * FIELD_COUNT + field;
      if (localCounts[at]! < MAX_TERM_FREQUENCY) localCounts[at]!++;
    }
    this.#distinct = distinct;
  }

  /**
   * The term ids of a text, as the position in `#pool` of their count, followed by them. Texts
   * repeat across a catalog (parameter names such as "limit", descriptions such as "The ID of the
   * repository"), so each distinct text is analyzed once; the cache is bounded and term ids never
   * change, so an entry never goes stale. A text that is not cached is written past the pool's
   * end, where the next text overwrites it.
   */
  #termIdsOf(text: string, cacheable: boolean): number {
    if (cacheable) {
      const cached = this.#textCache.get(text);
      if (cached !== undefined) return cached;
    }
    if (cacheable && this.#textCache.size >= MAX_CACHED_TEXTS) {
      this.#textCache.clear();
      this.#poolUsed = 0;
    }
    const start = this.#poolUsed;
    this.#textStart = start;
    this.#textTerms = 0;
    const scan = this.#scanTerms;
    if (scan) {
      scan(text, this.#termSink);
    } else {
      // Interning never touches the pool: the ids go straight to their place.
      for (const term of this.#tokenize(text)) this.#writeTerm(this.#internTerm(term));
    }
    this.#reservePool(start + 1);
    this.#pool[start] = this.#textTerms;
    if (cacheable) {
      this.#textCache.set(text, start);
      this.#poolUsed = start + this.#textTerms + 1;
    }
    return start;
  }

  /** Writes the next term id of the text being analyzed. */
  #writeTerm(termId: number): void {
    const at = this.#textStart + 1 + this.#textTerms++;
    if (at >= this.#pool.length) this.#reservePool(at + 1);
    this.#pool[at] = termId;
  }

  /** Grows `#pool` to at least `size` entries, keeping what it holds. */
  #reservePool(size: number): void {
    if (size <= this.#pool.length) return;
    let capacity = Math.max(TERM_POOL_SIZE, this.#pool.length);
    while (capacity < size) capacity *= 2;
    const pool = new Int32Array(capacity);
    pool.set(this.#pool);
    this.#pool = pool;
  }

  /** The term id of the Han bigram at `text[at]`, interned on first sight. */
  #internBigram(text: string, at: number): number {
    const key = bigramKey(text.charCodeAt(at), text.charCodeAt(at + 1));
    const probe = this.#bigramProbe(key);
    const found = this.#bigramTerms[probe]!;
    if (this.#bigramKeys[probe] === key) return found;
    return this.#addBigram(key, probe, text.slice(at, at + 2));
  }

  /**
   * Where the bigram `key` is in the table, or the empty place it would take. The table is
   * never full: it grows at half.
   */
  #bigramProbe(key: number): number {
    const keys = this.#bigramKeys;
    const mask = keys.length - 1;
    if (mask < 0) return 0;
    let probe = Math.imul(key, 0x9e3779b1) & mask;
    for (;;) {
      const found = keys[probe]!;
      if (found === key || found === 0) return probe;
      probe = (probe + 1) & mask;
    }
  }

  /** Gives the bigram `key` (the string `term`) its term id: the restored one, or a new one. */
  #addBigram(key: number, probe: number, term: string): number {
    const restored = this.#restoredTerms > 0 ? this.#restored!.terms.indexOf(term) : -1;
    const termId = restored >= 0 ? restored : this.#newTerm();
    let at = probe;
    if ((this.#bigramCount + 1) * 2 > this.#bigramKeys.length) {
      this.#growBigrams();
      at = this.#bigramProbe(key);
    }
    this.#bigramKeys[at] = key;
    this.#bigramTerms[at] = termId;
    this.#bigramCount++;
    return termId;
  }

  /** Where the term ids of the word `text[start .. end)` are in `#wordPool`, analyzed on first sight. */
  #wordTermsOf(
    text: string,
    start: number,
    end: number,
    analyze: (word: string) => readonly string[],
  ): number {
    // As a signed 32-bit integer, the table's type; never 0, which marks an empty place.
    const hash = stringHash(text, start, end) | 0 || 1;
    let hashes = this.#wordHashes;
    let mask = hashes.length - 1;
    let probe = hash & mask;
    const length = end - start;
    while (mask >= 0) {
      const found = hashes[probe]!;
      if (found === 0) break;
      if (found === hash) {
        const number = this.#wordSlots[probe]! - 1;
        const word = this.#words[number]!;
        if (word.length === length && text.startsWith(word, start))
          return this.#wordStarts[number]!;
      }
      probe = (probe + 1) & mask;
    }
    const word = text.slice(start, end);
    const terms = analyze(word);
    if (this.#words.length >= MAX_CACHED_WORDS) this.#dropWords();
    if ((this.#words.length + 1) * 2 > hashes.length) {
      this.#growWords();
      hashes = this.#wordHashes;
      mask = hashes.length - 1;
      probe = hash & mask;
      while (hashes[probe] !== 0) probe = (probe + 1) & mask;
    }
    const at = this.#wordPoolUsed;
    if (at + terms.length + 1 > this.#wordPool.length) {
      let capacity = Math.max(4096, this.#wordPool.length);
      while (capacity < at + terms.length + 1) capacity *= 2;
      const pool = new Int32Array(capacity);
      pool.set(this.#wordPool);
      this.#wordPool = pool;
    }
    const wordPool = this.#wordPool;
    wordPool[at] = terms.length;
    for (let position = 0; position < terms.length; position++) {
      wordPool[at + 1 + position] = this.#internTerm(terms[position]!);
    }
    this.#wordPoolUsed = at + terms.length + 1;
    hashes[probe] = hash;
    this.#wordSlots[probe] = this.#words.length + 1;
    this.#words.push(word);
    this.#wordStarts.push(at);
    return at;
  }

  #growWords(): void {
    const capacity = Math.max(1024, this.#wordHashes.length * 2);
    const hashes = new Int32Array(capacity);
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let at = 0; at < this.#wordHashes.length; at++) {
      const hash = this.#wordHashes[at]!;
      if (hash === 0) continue;
      let probe = hash & mask;
      while (hashes[probe] !== 0) probe = (probe + 1) & mask;
      hashes[probe] = hash;
      slots[probe] = this.#wordSlots[at]!;
    }
    this.#wordHashes = hashes;
    this.#wordSlots = slots;
  }

  #dropWords(): void {
    this.#wordHashes = new Int32Array(0);
    this.#wordSlots = new Int32Array(0);
    this.#words = [];
    this.#wordStarts = [];
    this.#wordPool = new Int32Array(0);
    this.#wordPoolUsed = 0;
  }

  #growBigrams(): void {
    const oldKeys = this.#bigramKeys;
    const oldTerms = this.#bigramTerms;
    const capacity = Math.max(4096, oldKeys.length * 2);
    this.#bigramKeys = new Int32Array(capacity);
    this.#bigramTerms = new Int32Array(capacity);
    for (let at = 0; at < oldKeys.length; at++) {
      const key = oldKeys[at]!;
      if (key === 0) continue;
      const probe = this.#bigramProbe(key);
      this.#bigramKeys[probe] = key;
      this.#bigramTerms[probe] = oldTerms[at]!;
    }
  }

  /** Makes room for `terms` distinct terms in the tool being added, keeping those counted so far. */
  #growScratch(terms: number): void {
    let capacity = this.#localTerms.length;
    while (capacity < terms) capacity *= 2;
    const localTerms = new Int32Array(capacity);
    localTerms.set(this.#localTerms);
    this.#localTerms = localTerms;
    const localCounts = new Uint8Array(capacity * FIELD_COUNT);
    localCounts.set(this.#localCounts);
    this.#localCounts = localCounts;
  }

  #internTerm(term: string): number {
    const key = bigramKeyOf(term);
    if (key !== 0) {
      const probe = this.#bigramProbe(key);
      if (this.#bigramKeys[probe] === key) return this.#bigramTerms[probe]!;
      return this.#addBigram(key, probe, term);
    }
    let termId = this.#termIds.get(term);
    if (termId === undefined && this.#restoredTerms > 0) termId = this.#termIdOf(term);
    if (termId === undefined) {
      termId = this.#newTerm();
      this.#termIds.set(term, termId);
    }
    return termId;
  }

  /** A new term id, with room for its counts. */
  #newTerm(): number {
    const termId = this.#postings.length;
    this.#postings.push(undefined);
    if (termId >= this.#documentFrequency.length) {
      const capacity = this.#documentFrequency.length * 2;
      this.#documentFrequency = grownInt32(this.#documentFrequency, capacity);
      this.#seenAt = grownInt32(this.#seenAt, capacity);
      this.#localIndex = grownInt32(this.#localIndex, capacity);
    }
    return termId;
  }

  /**
   * Indexes many tools at once: postings are collected in one flat buffer and written, grouped
   * by term, into one block at the end, instead of growing every term's list tool by tool.
   */
  #addAll(tools: Iterable<ToolDescriptor>): void {
    const expected = Array.isArray(tools) ? tools.length : undefined;
    if (expected !== undefined && expected > this.#alive.length && this.#slotCount === 0) {
      // A fresh index given a list: every per-tool array is made at its size once.
      this.#grow(expected);
      this.#ids = new Array(expected);
      this.#exactKeys = new Array(expected);
      this.#descriptions = new Array(expected);
      this.#slotTerms = new Array(expected);
    }
    const pending = new PendingPostings(expected);
    this.#pending = pending;
    try {
      for (const tool of tools) this.add(tool);
    } finally {
      this.#pending = undefined;
      this.#built = pending.flush(this.#postings.length, this.#documentFrequency, this.#alive);
      // Later adds are few: the word table is not worth its memory between them.
      this.#dropWords();
      this.#slotTermsPending = this.#slotCount > 0;
    }
  }

  #allocateSlot(): number {
    if (this.#slotCount === this.#alive.length) {
      // Slots of removed tools are reclaimed by renumbering once they are most of the array.
      // Never while postings are pending: they hold slot numbers that compaction would change.
      if (!this.#pending && this.#slotCount - this.#liveCount > this.#slotCount / 2)
        this.#compact();
      if (this.#slotCount === this.#alive.length) this.#grow(this.#alive.length * 2);
    }
    return this.#slotCount++;
  }

  #grow(capacity: number): void {
    const alive = new Uint8Array(capacity);
    alive.set(this.#alive);
    this.#alive = alive;
    const lengths = new Uint32Array(capacity * FIELD_COUNT);
    lengths.set(this.#fieldLengths);
    this.#fieldLengths = lengths;
    this.#fieldLengthsBorrowed = false;
    this.#scores = new Float64Array(capacity);
    this.#touched = new Int32Array(capacity);
  }

  /** Renumbers live slots densely and drops removed ones from every posting list. */
  #compact(): void {
    if (this.#slotTermsPending) this.#deriveSlotTerms();
    this.#adoptRestoredSlots();
    if (this.#fieldLengthsBorrowed) {
      this.#fieldLengths = this.#fieldLengths.slice();
      this.#fieldLengthsBorrowed = false;
    }
    const remap = new Int32Array(this.#slotCount).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.#slotCount; slot++) {
      if (this.#alive[slot] === 0) continue;
      const target = next++;
      remap[slot] = target;
      this.#ids[target] = this.#ids[slot]!;
      this.#descriptions[target] = this.#descriptions[slot]!;
      this.#exactKeys[target] = this.#exactKeys[slot]!;
      this.#slotTerms[target] = this.#slotTerms[slot]!;
      this.#fieldLengths.copyWithin(
        target * FIELD_COUNT,
        slot * FIELD_COUNT,
        (slot + 1) * FIELD_COUNT,
      );
    }
    for (let termId = 0; termId < this.#postings.length; termId++) {
      const posting = this.#postingAt(termId);
      postingCompact(posting, this.#alive);
      for (let position = 0; position < posting.length; position++) {
        posting.slots[position] = remap[posting.slots[position]!]!;
      }
    }
    this.#alive.fill(0);
    this.#alive.fill(1, 0, next);
    this.#ids.length = next;
    this.#descriptions.length = next;
    this.#exactKeys.length = next;
    this.#slotTerms.length = next;
    this.#slotCount = next;
    for (const [id, slot] of this.#slotById) this.#slotById.set(id, remap[slot]!);
    for (const [key, slots] of this.#slotsByExactKey) {
      this.#slotsByExactKey.set(
        key,
        typeof slots === 'number' ? remap[slots]! : slots.map((slot) => remap[slot]!),
      );
    }
    this.#epoch++;
  }
}

function grownInt32(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}

function passes(filter: (id: string) => boolean, id: string): boolean {
  try {
    return filter(id) === true;
  } catch {
    return false;
  }
}

function describeValue(value: unknown): string {
  return value === undefined ? 'undefined' : (JSON.stringify(value) ?? typeof value);
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

/** The first CJK Unified Ideograph, and how many there are in the block (U+4E00..U+9FFF). */
const HAN_FIRST = 0x4e00;
const HAN_COUNT = 0x5200;

/** The key of the bigram of two CJK Unified Ideographs: a small integer (at most 0x5200²), never 0. */
function bigramKey(first: number, second: number): number {
  return (first - HAN_FIRST) * HAN_COUNT + (second - HAN_FIRST) + 1;
}

/** The {@link bigramKey} of a term, or 0 when it is not two CJK Unified Ideographs. */
function bigramKeyOf(term: string): number {
  if (term.length !== 2) return 0;
  const first = term.charCodeAt(0);
  const second = term.charCodeAt(1);
  return isHanCode(first) && isHanCode(second) ? bigramKey(first, second) : 0;
}

/** The bigram a {@link bigramKey} stands for. */
function bigramOf(key: number): string {
  const index = key - 1;
  return String.fromCharCode(
    HAN_FIRST + Math.floor(index / HAN_COUNT),
    HAN_FIRST + (index % HAN_COUNT),
  );
}

function isHanCode(code: number): boolean {
  return code >= HAN_FIRST && code < HAN_FIRST + HAN_COUNT;
}
