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
/** Keywords whose values are schemas nested in a schema. */
const NESTED_SCHEMA_KEYS = [
  'items',
  'prefixItems',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
];
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
 *
 * @param schema - an input schema, or anything (non-objects yield nothing)
 * @param visit - called once per text
 */
export function forEachSchemaText(
  schema: unknown,
  visit: (text: string, isName: boolean) => void,
): void {
  // Budgets instead of a visited set: they bound cyclic and huge schemas alike, for less work.
  let stringsLeft = MAX_SCHEMA_STRINGS;
  let nodesLeft = MAX_SCHEMA_NODES;

  const push = (value: unknown, isName: boolean): void => {
    if (typeof value === 'string' && value.length > 0 && stringsLeft-- > 0) visit(value, isName);
  };

  const walk = (node: unknown, depth: number, isRoot: boolean): void => {
    if (node === null || typeof node !== 'object' || depth > MAX_SCHEMA_DEPTH || nodesLeft-- <= 0) {
      return;
    }
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1, false);
      return;
    }
    const record = node as Record<string, unknown>;
    // The root's own description usually repeats the tool description; only nested text is new.
    if (!isRoot) {
      push(record.description, false);
      push(record.title, false);
    }
    if (Array.isArray(record.enum)) for (const value of record.enum) push(value, false);
    const properties = record.properties;
    if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const name in properties) {
        if (!Object.hasOwn(properties, name)) continue;
        push(name, true);
        walk((properties as Record<string, unknown>)[name], depth + 1, false);
      }
    }
    for (const key of NESTED_SCHEMA_KEYS) {
      const child = record[key];
      if (child !== undefined) walk(child, depth + 1, false);
    }
  };

  walk(schema, 0, true);
}
