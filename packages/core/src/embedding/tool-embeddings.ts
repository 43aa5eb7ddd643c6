import { MAX_QUERY_LENGTH } from '../search/parsed-query';
import type { ToolDescriptor } from '../search/tool-descriptor';
import type { ToolIndex } from '../search/tool-index';
import { contentHash } from './content-hash';
import { EmbeddingError, type EmbedFunction } from './embed-function';
import { toEmbeddingText } from './embedding-text';
import type { SimilarityKernelPreference } from './similarity-kernel';
import { toUnitVector, type VectorCache } from './vector-cache';
import { VectorMatrix } from './vector-matrix';

/** Embedding calls for tool texts running at once per engine: fast warm-up, gentle on rate limits. */
const MAX_CONCURRENT_CALLS = 4;
/** Query vectors kept for reuse: agents repeat searches, across steps and callers. */
const MAX_CACHED_QUERY_VECTORS = 256;

/** Where an embedding failure is reported (the session's `onError`, with its thread). */
export type EmbeddingReporter = (operation: 'embed.tools' | 'embed.query', error: unknown) => void;

/** A catalog tool as the embeddings read it: the descriptor its text is made from (an engine's `CatalogEntry` is one). */
export interface DescribedTool<TTool> {
  tool: TTool;
  descriptor: ToolDescriptor;
}

/**
 * A catalog and the index built from it: what a search ranks. Lists of them start with the
 * engine's own catalog (then a request's resolved tools, if any).
 */
export interface Searchable<TTool> {
  index: ToolIndex;
  catalog: ReadonlyMap<string, DescribedTool<TTool>>;
}

/** The texts of an index's tools, by id, with their content hashes. */
interface IndexTexts {
  ids: string[];
  texts: string[];
  hashes: string[];
}

/**
 * @internal Computes and caches the vectors of an engine's tools and queries: each distinct tool
 * text once (batched, shared by every session), a query once per search. Never throws into a
 * search: failures are reported and the search goes on without vectors.
 */
export class ToolEmbeddings {
  readonly cache: VectorCache;
  readonly #embed: EmbedFunction;
  readonly #timeout: number;
  readonly #batchSize: number;
  readonly #kernel: SimilarityKernelPreference;
  readonly #texts = new WeakMap<ToolIndex, IndexTexts>();
  readonly #matrices = new WeakMap<ToolIndex, VectorMatrix>();
  /** Hashes whose text is being embedded, to the call that will settle them. */
  readonly #pending = new Map<string, Promise<boolean>>();
  readonly #queries = new Map<string, Float32Array>();
  readonly #waiting: (() => void)[] = [];
  #running = 0;
  /** The last tool batch failed: the next search probes with one batch before sending the rest. */
  #failing = false;

  constructor(options: {
    embed: EmbedFunction;
    cache: VectorCache;
    timeout: number;
    batchSize: number;
    kernel: SimilarityKernelPreference;
  }) {
    this.#embed = options.embed;
    this.cache = options.cache;
    this.#timeout = options.timeout;
    this.#batchSize = options.batchSize;
    this.#kernel = options.kernel;
  }

  /**
   * Embeds every tool of the searchables that has no vector yet, and waits for it.
   * @throws the first {@link EmbeddingError} of a failed call (after reporting it)
   */
  async warm<TTool>(searchables: readonly Searchable<TTool>[], report: EmbeddingReporter) {
    const failures: unknown[] = [];
    await this.#ensure(searchables, (operation, error) => {
      failures.push(error);
      report(operation, error);
    });
    // Calls another search started are awaited too: their failures count here as well.
    if (failures.length > 0) throw failures[0];
    const missing = searchables.some(({ index, catalog }) => {
      const texts = this.#textsOf(index, catalog);
      return texts.hashes.some((hash) => this.cache.get(hash) === undefined);
    });
    if (missing) {
      throw new EmbeddingError('error', 'Some tool texts could not be embedded; see onError');
    }
    // Build the matrices now too, so the first search finds them ready.
    for (const [position, { index, catalog }] of searchables.entries()) {
      this.matrixOf(index, catalog, position === 0);
    }
  }

  /**
   * What a fused search needs: the query's vector and each searchable's tool vectors, waiting at
   * most the timeout for them. `undefined` (after reporting why) when the query has no vector or
   * no tool has one yet.
   */
  async prepare<TTool>(
    searchables: readonly Searchable<TTool>[],
    query: string,
    report: EmbeddingReporter,
  ): Promise<{ query: Float32Array; matrices: (VectorMatrix | undefined)[] } | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // Once every tool has its vector (the usual case) there is nothing to start or wait for.
      const ready = searchables.every(
        ({ index, catalog }, position) =>
          this.matrixOf(index, catalog, position === 0)?.complete === true,
      );
      // Never rejects: failures are reported, and the vectors that arrived are used.
      const tools = ready ? undefined : this.#ensure(searchables, report);
      const deadline =
        tools &&
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.#timeout);
          timer.unref?.();
        });
      const queryVector = await this.#queryVector(query, report);
      if (queryVector === undefined) return undefined;
      // Tool calls still running at the deadline go on: their vectors serve later searches.
      if (tools) await Promise.race([tools, deadline]);
      const matrices = searchables.map(({ index, catalog }, position) =>
        this.matrixOf(index, catalog, position === 0),
      );
      const filled = matrices.find((matrix) => matrix !== undefined && matrix.present > 0);
      if (!filled) return undefined;
      if (queryVector.length !== filled.dimension) {
        report(
          'embed.query',
          new EmbeddingError(
            'shape',
            `The query's vector has ${queryVector.length} dimensions, the tools' have ${filled.dimension}`,
          ),
        );
        return undefined;
      }
      return { query: queryVector, matrices };
    } catch (error) {
      report('embed.tools', toEmbeddingError(error));
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The vectors of an index's tools as a matrix, with the rows that arrived since the last call;
   * `undefined` while the cache holds no vector (its dimension is unknown) or the index is empty.
   * @param own - the engine's own catalog (it lives as long as the cache): the cache then shares
   *   the matrix's copy of each vector instead of holding its own
   */
  matrixOf<TTool>(
    index: ToolIndex,
    catalog: ReadonlyMap<string, DescribedTool<TTool>>,
    own = false,
  ): VectorMatrix | undefined {
    const cache = this.cache;
    let matrix = this.#matrices.get(index);
    if (matrix === undefined || matrix.generation !== cache.generation) {
      const dimension = cache.dimension;
      const texts = this.#textsOf(index, catalog);
      if (dimension === undefined || texts.ids.length === 0) return undefined;
      matrix = new VectorMatrix({
        ids: texts.ids,
        hashes: texts.hashes,
        dimension,
        generation: cache.generation,
        kernel: this.#kernel,
      });
      this.#matrices.set(index, matrix);
    }
    matrix.fill(cache, own);
    return matrix;
  }

  #textsOf<TTool>(
    index: ToolIndex,
    catalog: ReadonlyMap<string, DescribedTool<TTool>>,
  ): IndexTexts {
    let texts = this.#texts.get(index);
    if (!texts) {
      texts = { ids: [], texts: [], hashes: [] };
      for (const [id, entry] of catalog) {
        const text = toEmbeddingText(entry.descriptor);
        texts.ids.push(id);
        texts.texts.push(text);
        texts.hashes.push(contentHash(text));
      }
      this.#texts.set(index, texts);
    }
    return texts;
  }

  /** Starts the calls for texts without a vector (or a call in flight); settles when all have. */
  async #ensure<TTool>(
    searchables: readonly Searchable<TTool>[],
    report: EmbeddingReporter,
  ): Promise<void> {
    try {
      await this.#embedMissing(searchables, report);
    } catch (error) {
      // Only a describe() that returned something odd can get here; the search goes on.
      report('embed.tools', toEmbeddingError(error));
    }
  }

  async #embedMissing<TTool>(
    searchables: readonly Searchable<TTool>[],
    report: EmbeddingReporter,
  ): Promise<void> {
    const waits: Promise<boolean>[] = [];
    const missing = new Map<string, string>();
    for (const [position, { index, catalog }] of searchables.entries()) {
      if (this.matrixOf(index, catalog, position === 0)?.complete) continue;
      const texts = this.#textsOf(index, catalog);
      for (let position = 0; position < texts.hashes.length; position++) {
        const hash = texts.hashes[position]!;
        if (this.cache.get(hash) !== undefined || missing.has(hash)) continue;
        const pending = this.#pending.get(hash);
        if (pending) waits.push(pending);
        else missing.set(hash, texts.texts[position]!);
      }
    }
    const entries = [...missing];
    const batches: [string, string][][] = [];
    for (let start = 0; start < entries.length; start += this.#batchSize) {
      batches.push(entries.slice(start, start + this.#batchSize));
    }
    if (batches.length > 0 && this.#failing) {
      // Do not hammer a failing embedder: one batch first, the rest only once it succeeds.
      const [probe, ...rest] = batches;
      if (!(await this.#embedBatch(probe!, report))) {
        await Promise.all(waits);
        return;
      }
      batches.splice(0, batches.length, ...rest);
    }
    waits.push(...batches.map((batch) => this.#embedBatch(batch, report)));
    await Promise.all(waits);
  }

  /** Embeds one batch of tool texts into the cache; `false` (after reporting) when it failed. */
  #embedBatch(batch: [string, string][], report: EmbeddingReporter): Promise<boolean> {
    const done = this.#whenFree()
      .then(() =>
        this.#call(
          batch.map(([, text]) => text),
          this.cache.dimension,
          'document',
        ),
      )
      .then(
        (vectors) => {
          try {
            // Another batch may have fixed a different dimension meanwhile: the cache refuses it.
            for (const [position, [hash]] of batch.entries()) {
              this.cache.set(hash, vectors[position]!);
            }
          } catch (error) {
            this.#failing = true;
            report('embed.tools', new EmbeddingError('shape', String(error), error));
            return false;
          }
          this.#failing = false;
          return true;
        },
        (error: unknown) => {
          this.#failing = true;
          report('embed.tools', toEmbeddingError(error));
          return false;
        },
      )
      .finally(() => {
        this.#release();
        for (const [hash] of batch) this.#pending.delete(hash);
      });
    for (const [hash] of batch) this.#pending.set(hash, done);
    return done;
  }

  async #queryVector(query: string, report: EmbeddingReporter): Promise<Float32Array | undefined> {
    const text = query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query;
    const cached = this.#queries.get(text);
    if (cached) {
      this.#queries.delete(text);
      this.#queries.set(text, cached);
      return cached;
    }
    try {
      const [vector] = await this.#call([text], undefined, 'query');
      if (this.#queries.size >= MAX_CACHED_QUERY_VECTORS) {
        this.#queries.delete(this.#queries.keys().next().value!);
      }
      this.#queries.set(text, vector!);
      return vector;
    } catch (error) {
      report('embed.query', toEmbeddingError(error));
      return undefined;
    }
  }

  /**
   * One call of the embedder, checked: a throw, a rejection, no answer within the timeout
   * (then aborted), or anything but one finite vector per text, all of one dimension (the
   * expected one, when known), rejects with an {@link EmbeddingError}.
   */
  async #call(
    texts: string[],
    dimension: number | undefined,
    purpose: 'query' | 'document',
  ): Promise<Float32Array[]> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new EmbeddingError('timeout', `The embedder did not answer within ${this.#timeout} ms`),
        );
        controller.abort();
      }, this.#timeout);
      timer.unref?.();
    });
    let result: unknown;
    try {
      // A synchronous throw and a non-promise answer are handled like a rejection and a value.
      result = await Promise.race([
        Promise.resolve().then(() =>
          this.#embed([...texts], { signal: controller.signal, purpose }),
        ),
        timedOut,
      ]);
    } catch (error) {
      if (error instanceof EmbeddingError) throw error;
      throw new EmbeddingError('error', 'The embedder failed', error);
    } finally {
      clearTimeout(timer);
    }
    return checkVectors(result, texts.length, dimension);
  }

  #whenFree(): Promise<void> {
    if (this.#running < MAX_CONCURRENT_CALLS) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running--;
  }
}

/** The embedder's answer as unit vectors, or an {@link EmbeddingError} saying what is wrong with it. */
function checkVectors(
  result: unknown,
  count: number,
  dimension: number | undefined,
): Float32Array[] {
  if (!Array.isArray(result)) {
    throw new EmbeddingError('shape', 'The embedder did not return a list of vectors');
  }
  if (result.length !== count) {
    throw new EmbeddingError(
      'shape',
      `The embedder returned ${result.length} vectors for ${count} texts`,
    );
  }
  const vectors: Float32Array[] = [];
  let expected = dimension;
  for (const [position, vector] of result.entries()) {
    const unit = toUnitVector(vector as ArrayLike<number>);
    if (unit === undefined) {
      throw new EmbeddingError(
        'shape',
        `The embedder's vector ${position} is not a non-empty list of finite numbers`,
      );
    }
    if (expected !== undefined && unit.length !== expected) {
      throw new EmbeddingError(
        'shape',
        `The embedder's vector ${position} has ${unit.length} dimensions, expected ${expected}`,
      );
    }
    expected = unit.length;
    vectors.push(unit);
  }
  return vectors;
}

function toEmbeddingError(error: unknown): unknown {
  return error instanceof EmbeddingError
    ? error
    : new EmbeddingError('error', 'The embedder failed', error);
}
