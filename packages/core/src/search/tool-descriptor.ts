/** A JSON Schema object, as tools and MCP servers publish their input schemas. */
export type JSONSchema = { readonly [key: string]: unknown };

/** What the index knows about a tool: everything it ranks on. */
export interface ToolDescriptor {
  /** The name the model sees and loads the tool by. */
  id: string;
  /** What the tool does, written for a model. */
  description?: string;
  /** The tool's input schema; parameter names and descriptions are searchable. */
  inputSchema?: JSONSchema;
  /** Extra search words (synonyms, product names) that appear nowhere else. */
  keywords?: string[];
}

/** One ranked search result. */
export interface SearchHit {
  /** The tool's id. */
  id: string;
  /** Raw BM25F relevance plus ID-match boosts; not normalized, higher is better. */
  score: number;
  /** The tool's description, or `''`. */
  description: string;
}

/** Text of a tool's input schema, split by what it says. */
export interface SchemaText {
  /** Property names at every depth. */
  names: string[];
  /** Descriptions, titles and string enum values at every depth. */
  descriptions: string[];
}

/** Nesting deeper than this is ignored: real tool schemas stay far shallower, cyclic ones never end. */
const MAX_SCHEMA_DEPTH = 8;
/** Keywords whose values are schemas nested in a schema (in the order of their bits in `KEYWORD`). */
const NESTED_SCHEMA_KEYS = [
  'items',
  'prefixItems',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
];
/** The keywords {@link forEachSchemaText} reads, as bits; the nested ones in `NESTED_SCHEMA_KEYS` order. */
const KEYWORD = {
  description: 1,
  title: 2,
  enum: 4,
  properties: 8,
  items: 16,
} as const;
const NESTED_KEYWORDS = ((1 << NESTED_SCHEMA_KEYS.length) - 1) * KEYWORD.items;
/** Every keyword bit: what a node with more keys than {@link MAX_SCANNED_KEYS} is assumed to have. */
const ALL_KEYWORDS = KEYWORD.items - 1 + NESTED_KEYWORDS;
/** Keys of a schema node scanned for keywords; past them every keyword is read by name. */
const MAX_SCANNED_KEYS = 32;

/**
 * Which keywords a schema node has, from one pass over its keys. Schema nodes have a few keys
 * each (`type`, `description`), and reading ten keywords by name, most of them absent, cost
 * more than the rest of the walk. A node with more keys than {@link MAX_SCANNED_KEYS} (hostile
 * or generated) gets every keyword read by name, so its size never multiplies the work.
 */
function schemaKeywordsOf(record: Record<string, unknown>): number {
  let keywords = 0;
  let scanned = 0;
  for (const key in record) {
    if (++scanned > MAX_SCANNED_KEYS) return ALL_KEYWORDS;
    switch (key) {
      case 'description':
        keywords |= KEYWORD.description;
        break;
      case 'title':
        keywords |= KEYWORD.title;
        break;
      case 'enum':
        keywords |= KEYWORD.enum;
        break;
      case 'properties':
        keywords |= KEYWORD.properties;
        break;
      case 'items':
        keywords |= KEYWORD.items;
        break;
      case 'prefixItems':
        keywords |= KEYWORD.items << 1;
        break;
      case 'additionalProperties':
        keywords |= KEYWORD.items << 2;
        break;
      case 'anyOf':
        keywords |= KEYWORD.items << 3;
        break;
      case 'oneOf':
        keywords |= KEYWORD.items << 4;
        break;
      case 'allOf':
        keywords |= KEYWORD.items << 5;
        break;
    }
  }
  return keywords;
}

/** Schema nodes visited at most per tool: a cyclic schema with many self-references stays cheap. */
const MAX_SCHEMA_NODES = 5_000;
/** Caps the work per tool for schemas with huge enums or thousands of properties. */
const MAX_SCHEMA_STRINGS = 2_000;

/**
 * Collects the searchable text of a JSON Schema: property names and descriptions of nested
 * objects, array items and `anyOf`/`oneOf`/`allOf` branches. `$ref`s are not followed.
 *
 * @param schema - an input schema, or anything (non-objects yield nothing)
 * @returns the property names and the descriptive text
 */
export function extractSchemaText(schema: unknown): SchemaText {
  const text: SchemaText = { names: [], descriptions: [] };
  forEachSchemaText(schema, (value, isName) => {
    (isName ? text.names : text.descriptions).push(value);
  });
  return text;
}

/**
 * Calls `visit` with each non-empty text of a JSON Schema in the order it is found: property
 * names (`isName`), and descriptions, titles and string enum values (see {@link extractSchemaText}).
 * A schema is plain data: keywords are found among a node's enumerable keys.
 *
 * @param schema - an input schema, or anything (non-objects yield nothing)
 * @param visit - called once per text
 */
export function forEachSchemaText(
  schema: unknown,
  visit: (text: string, isName: boolean) => void,
): void {
  new SchemaWalk(visit).walk(schema, 0, true);
}

/**
 * One walk of {@link forEachSchemaText}: its budgets and visitor. A class rather than closures,
 * so every walk runs the same methods (a catalog walks thousands of schemas).
 */
class SchemaWalk {
  readonly #visit: (text: string, isName: boolean) => void;
  // Budgets instead of a visited set: they bound cyclic and huge schemas alike, for less work.
  #stringsLeft = MAX_SCHEMA_STRINGS;
  #nodesLeft = MAX_SCHEMA_NODES;

  constructor(visit: (text: string, isName: boolean) => void) {
    this.#visit = visit;
  }

  walk(node: unknown, depth: number, isRoot: boolean): void {
    // Every value walked costs a node, a leaf too: a huge array of leaves is bounded as well.
    if (
      this.#nodesLeft-- <= 0 ||
      this.#stringsLeft <= 0 ||
      node === null ||
      typeof node !== 'object' ||
      depth > MAX_SCHEMA_DEPTH
    ) {
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) {
        if (this.#stringsLeft <= 0 || this.#nodesLeft <= 0) return;
        this.walk(item, depth + 1, false);
      }
      return;
    }
    const record = node as Record<string, unknown>;
    const keywords = schemaKeywordsOf(record);
    // The root's own description usually repeats the tool description; only nested text is new.
    if (!isRoot) {
      if (keywords & KEYWORD.description) this.#push(record.description, false);
      if (keywords & KEYWORD.title) this.#push(record.title, false);
    }
    const values = keywords & KEYWORD.enum ? record.enum : undefined;
    if (Array.isArray(values)) {
      // Values that are not strings cost no budget: read at most as many as it has left.
      const end = Math.min(values.length, this.#stringsLeft);
      for (let at = 0; at < end; at++) this.#push(values[at], false);
    }
    const properties = keywords & KEYWORD.properties ? record.properties : undefined;
    if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const name in properties) {
        if (this.#stringsLeft <= 0) return;
        if (!Object.hasOwn(properties, name)) continue;
        this.#push(name, true);
        this.walk((properties as Record<string, unknown>)[name], depth + 1, false);
      }
    }
    if (keywords & NESTED_KEYWORDS) {
      for (let at = 0; at < NESTED_SCHEMA_KEYS.length; at++) {
        if (!(keywords & (KEYWORD.items << at))) continue;
        const child = record[NESTED_SCHEMA_KEYS[at]!];
        if (child !== undefined) this.walk(child, depth + 1, false);
      }
    }
  }

  #push(value: unknown, isName: boolean): void {
    if (typeof value === 'string' && value.length > 0 && this.#stringsLeft-- > 0) {
      this.#visit(value, isName);
    }
  }
}
