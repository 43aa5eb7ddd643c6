import { RESERVED_TOOL_NAMES } from '../meta-tools/meta-tool-names';
import type { ToolDescriptor } from '../search/tool-descriptor';
import { ToolIndex } from '../search/tool-index';
import type { ToolIndexOptions } from '../search/tool-index-options';
import type { ToolCatalog } from './tool-catalog';

/** Requests (and request indexes) kept for reuse: a request's tools repeat across its steps and callers. */
const MAX_CACHED_REQUESTS = 32;
/** Multiplier of the order-dependent hash over a request's descriptions (a prime, as in Java's String.hashCode). */
const HASH_MULTIPLIER = 31;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** A request's searchable tools: its own catalog and the index of its descriptors. */
export interface RequestCatalog<TTool> {
  catalog: ToolCatalog<TTool>;
  index: ToolIndex;
}

/**
 * A request's tools, described and indexed once by `engine.resolveTools(tools)`: pass it as a
 * session's `resolvedTools` at every step of the request, and no step passes over the tools again.
 */
export class ResolvedTools<TTool> implements RequestCatalog<TTool> {
  /** The request's tools by id. */
  readonly catalog: ToolCatalog<TTool>;
  /** The index of the request's tools. */
  readonly index: ToolIndex;
  /** @internal The engine that resolved them: its options ranked them. */
  readonly owner: object;

  /** @internal Use `engine.resolveTools(tools)`. */
  constructor(owner: object, resolved: RequestCatalog<TTool>) {
    this.owner = owner;
    this.catalog = resolved.catalog;
    this.index = resolved.index;
  }
}

/** A request's tools: a record, or `[key, tool]` pairs. */
export type RequestTools<TTool> =
  | Readonly<Record<string, TTool>>
  | Iterable<readonly [string, TTool]>;

/** How the engine turns a request's tools into a catalog (duplicate and reserved-name checks). */
export type BuildRequestCatalog<TTool> = (
  tools: Readonly<Record<string, TTool>>,
  describe: (tool: TTool, key: string) => ToolDescriptor,
  skip: (error: Error) => void,
) => ToolCatalog<TTool>;

/** What `describe` made of one tool under one key, remembered for as long as the tool lives. */
interface Described {
  key: string;
  descriptor: ToolDescriptor | undefined;
  error: Error | undefined;
  /** The descriptor's JSON, computed when a request first needs to match by content. */
  fingerprint: string | null | undefined;
  contentHash: number;
  /** The same tool under another key. */
  next: Described | undefined;
}

/** A request's tools as walked: the key and the tool at each position, meta-tool names included. */
interface Walked<TTool> {
  keys: readonly string[];
  tools: readonly TTool[];
}

interface CachedRequest<TTool> extends RequestCatalog<TTool>, Walked<TTool> {
  /** Reported again whenever the same tools come back, as a fresh build would. */
  errors: Error[];
}

interface CachedIndex {
  fingerprints: string[];
  index: ToolIndex;
}

/**
 * The catalogs and indexes of request-resolved tools, cached so that a step whose tools are the
 * same objects as before costs one pass over the record and no re-description, and a request
 * whose tools are new objects with the same content reuses the index.
 *
 * Identity first: a request whose keys and tools are, position by position, those of a cached
 * request (the same strings and the same objects) is that request; comparing them costs a
 * pointer comparison each, so such a step pays little more than listing the record's keys. When
 * some tools are new, each tool object's description is kept in a `WeakMap` (per key it appears
 * under), so `describe` runs once per tool object. Content second: descriptions are then
 * fingerprinted as JSON (once per description) and a request with equal fingerprints reuses the
 * index; only a request with new content builds one.
 *
 * A tool mutated in place keeps its first description: give the request a new object instead.
 */
export class RequestCatalogs<TTool> {
  readonly #describe: (tool: TTool, key: string) => ToolDescriptor;
  readonly #indexOptions: ToolIndexOptions | undefined;
  readonly #build: BuildRequestCatalog<TTool>;
  readonly #byTool = new WeakMap<object, Described>();
  /** Most recently used first. */
  readonly #requests: CachedRequest<TTool>[] = [];
  readonly #indexes = new Map<number, CachedIndex[]>();
  #indexCount = 0;

  constructor(options: {
    describe: (tool: TTool, key: string) => ToolDescriptor;
    indexOptions: ToolIndexOptions | undefined;
    build: BuildRequestCatalog<TTool>;
  }) {
    this.#describe = options.describe;
    this.#indexOptions = options.indexOptions;
    this.#build = options.build;
  }

  /**
   * The catalog and index of a request's tools (meta-tool names skipped).
   * @param tools - the request's tools: a record keyed as the framework keys them, or
   *   `[key, tool]` pairs (a `Map`, an array), which are cheaper to walk than a large record
   * @param report - called with each tool that was skipped (no id, a duplicate id or key, a reserved name)
   */
  resolve(
    tools: RequestTools<TTool> | readonly TTool[],
    report: (error: Error) => void,
    keyOf?: (tool: TTool) => string,
  ): RequestCatalog<TTool> {
    const walked = walk(tools, keyOf);
    const known = this.#cachedRequest(walked);
    if (known) {
      for (const error of known.errors) report(error);
      return { catalog: known.catalog, index: known.index };
    }

    const errors: Error[] = [];
    const skip = (error: Error): void => {
      errors.push(error);
      report(error);
    };
    const byKey = new Map<string, Described>();
    const searchable: Record<string, TTool> = {};
    const reserved = RESERVED_TOOL_NAMES as readonly string[];
    for (let position = 0; position < walked.keys.length; position++) {
      const key = walked.keys[position]!;
      if (reserved.includes(key)) continue;
      if (byKey.has(key)) {
        skip(
          new Error(
            `ToolSearchEngine: two resolved tools are keyed "${key}"; the second is skipped`,
          ),
        );
        continue;
      }
      const tool = walked.tools[position]!;
      byKey.set(key, this.#describedFor(tool, key));
      Object.defineProperty(searchable, key, { value: tool, enumerable: true });
    }
    const catalog = this.#build(
      searchable,
      (_tool, key) => {
        const entry = byKey.get(key)!;
        if (entry.error) throw entry.error;
        return entry.descriptor!;
      },
      skip,
    );
    const indexed = [...catalog.values()].map((entry) => byKey.get(entry.key)!);
    const index = this.#indexFor(indexed);
    // The walk is kept as the cache's own copy: the caller may reuse its array.
    const request: CachedRequest<TTool> = {
      catalog,
      index,
      keys: walked.keys,
      tools: walked.tools === tools ? [...walked.tools] : walked.tools,
      errors,
    };
    this.#requests.unshift(request);
    if (this.#requests.length > MAX_CACHED_REQUESTS) this.#requests.pop();
    return { catalog, index };
  }

  /** The cached request with exactly these keys and tools, moved to the front; or `undefined`. */
  #cachedRequest(walked: Walked<TTool>): CachedRequest<TTool> | undefined {
    for (let position = 0; position < this.#requests.length; position++) {
      const cached = this.#requests[position]!;
      if (!sameItems(cached.keys, walked.keys) || !sameItems(cached.tools, walked.tools)) continue;
      if (position > 0) {
        this.#requests.splice(position, 1);
        this.#requests.unshift(cached);
      }
      return cached;
    }
    return undefined;
  }

  /** The description of a tool under a key, made once per tool object and key. */
  #describedFor(tool: TTool, key: string): Described {
    const identity = tool !== null && (typeof tool === 'object' || typeof tool === 'function');
    const first = identity ? this.#byTool.get(tool as object) : undefined;
    for (let entry = first; entry; entry = entry.next) if (entry.key === key) return entry;
    const entry: Described = {
      key,
      descriptor: undefined,
      error: undefined,
      fingerprint: undefined,
      contentHash: 0,
      next: first,
    };
    try {
      entry.descriptor = this.#describe(tool, key);
    } catch (error) {
      entry.error = error instanceof Error ? error : new Error(String(error));
    }
    if (identity) this.#byTool.set(tool as object, entry);
    return entry;
  }

  /** An index over these descriptions: a cached one with the same content, or a new one. */
  #indexFor(described: readonly Described[]): ToolIndex {
    let hash = FNV_OFFSET;
    let comparable = true;
    for (const entry of described) {
      if (entry.fingerprint === undefined) {
        entry.fingerprint = fingerprintOf(entry.descriptor!);
        entry.contentHash = entry.fingerprint === null ? 0 : stringHash(entry.fingerprint);
      }
      if (entry.fingerprint === null) comparable = false;
      hash = (Math.imul(hash, HASH_MULTIPLIER) + entry.contentHash) | 0;
    }
    const descriptors = described.map((entry) => entry.descriptor!);
    if (!comparable) return new ToolIndex(descriptors, this.#indexOptions);
    const fingerprints = described.map((entry) => entry.fingerprint as string);
    const known = findCached(this.#indexes.get(hash), (cached) =>
      sameItems(cached.fingerprints, fingerprints),
    );
    if (known) return known.index;
    const index = new ToolIndex(descriptors, this.#indexOptions);
    this.#indexCount = remember(this.#indexes, hash, { fingerprints, index }, this.#indexCount);
    return index;
  }
}

/**
 * A request's keys and tools in order. A record is read with `Object.keys` and one lookup per
 * key, the cheapest way through a large record (`Object.entries` and `Object.values` cost several
 * times more); an array of tools with `keyOf` is used as it is.
 */
function walk<TTool>(
  tools: RequestTools<TTool> | readonly TTool[],
  keyOf: ((tool: TTool) => string) | undefined,
): Walked<TTool> {
  if (keyOf && Array.isArray(tools)) {
    const list = tools as readonly TTool[];
    const keys = new Array<string>(list.length);
    for (let position = 0; position < list.length; position++)
      keys[position] = keyOf(list[position]!);
    return { keys, tools: list };
  }
  if (typeof (tools as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function') {
    const keys: string[] = [];
    const values: TTool[] = [];
    for (const pair of tools as Iterable<readonly [string, TTool]>) {
      keys.push(String(pair?.[0]));
      values.push(pair?.[1] as TTool);
    }
    return { keys, tools: values };
  }
  const record = tools as Readonly<Record<string, TTool>>;
  const keys = Object.keys(record);
  const values = new Array<TTool>(keys.length);
  for (let position = 0; position < keys.length; position++)
    values[position] = record[keys[position]!]!;
  return { keys, tools: values };
}

function findCached<TValue>(
  bucket: TValue[] | undefined,
  matches: (value: TValue) => boolean,
): TValue | undefined {
  if (!bucket) return undefined;
  for (const value of bucket) if (matches(value)) return value;
  return undefined;
}

/** Adds a value under its hash, dropping the oldest bucket when the cache is full; returns the new count. */
function remember<TValue>(
  cache: Map<number, TValue[]>,
  hash: number,
  value: TValue,
  count: number,
): number {
  let size = count;
  while (size >= MAX_CACHED_REQUESTS && cache.size > 0) {
    const oldest = cache.keys().next().value!;
    size -= cache.get(oldest)!.length;
    cache.delete(oldest);
  }
  const bucket = cache.get(hash);
  if (bucket) bucket.push(value);
  else cache.set(hash, [value]);
  return size + 1;
}

/** Whether two lists hold the same items (`===`) in the same order. */
function sameItems<TItem>(left: readonly TItem[], right: readonly TItem[]): boolean {
  if (left.length !== right.length) return false;
  for (let position = 0; position < left.length; position++) {
    if (left[position] !== right[position]) return false;
  }
  return true;
}

/** A descriptor's JSON, or `null` when it cannot be written (cycles, BigInt): then no reuse by content. */
function fingerprintOf(descriptor: ToolDescriptor): string | null {
  try {
    return JSON.stringify([
      descriptor.id,
      descriptor.description,
      descriptor.keywords,
      descriptor.inputSchema,
    ]);
  } catch {
    return null;
  }
}

/** 32-bit FNV-1a over UTF-16 code units (Fowler, Noll and Vo). */
function stringHash(text: string): number {
  let hash = FNV_OFFSET;
  for (let position = 0; position < text.length; position++) {
    hash = Math.imul(hash ^ text.charCodeAt(position), FNV_PRIME);
  }
  return hash | 0;
}
