import { isJsonObject, type JsonObject } from './json-values';

/** The JSON Schema drafts the check knows, by how they differ where it matters. */
export type SchemaDraft = '4' | '6' | '7' | '2019-09' | '2020-12';

/** A schema and the base URI its own references resolve against. */
export interface ResolvedSchema {
  schema: unknown;
  base: string;
}

/**
 * A tool's input schema, read once: its draft, and where each `$id` and anchor points, so that a
 * `$ref` resolves to a part of the same document in one lookup. A reference to anything outside
 * it (another URL) does not resolve: the check leaves that part unchecked and says so.
 */
export interface SchemaDocument {
  readonly root: unknown;
  readonly draft: SchemaDraft;
  /** The base URI of the schema at the document's root. */
  readonly rootBase: string;
  /** Whether `unevaluatedProperties` or `unevaluatedItems` appear (only then are annotations kept). */
  readonly usesUnevaluated: boolean;
  /**
   * What a `$ref` points to, or `undefined` when it is outside the document (or malformed).
   * @param reference - the `$ref` value
   * @param base - the base URI of the schema holding it
   */
  resolve(reference: string, base: string): ResolvedSchema | undefined;
  /** The base URI of a schema object of this document, given the base of the one around it. */
  baseOf(schema: JsonObject, outerBase: string): string;
}

/** A schema with more objects than this is not checked: the document is read whole, once. */
export const MAX_SCHEMA_NODES = 100_000;

/** The base of a schema without an absolute `$id`: hierarchical, so relative ids resolve. */
const DEFAULT_BASE = 'tool-search:/input-schema.json';

/** Keywords whose value is a schema. */
const SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
];
/** Keywords whose value is an array of schemas. */
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value is an object of schemas. */
const SCHEMA_MAP_KEYWORDS = [
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
  'patternProperties',
  'properties',
];

/** Thrown for a schema too large to read. */
export class SchemaTooLarge extends Error {
  constructor() {
    super(`The schema has more than ${MAX_SCHEMA_NODES} parts.`);
    this.name = 'SchemaTooLarge';
  }
}

/**
 * Reads a schema: its draft (from `$schema`; 2020-12, what zod and MCP emit, when it names none),
 * its embedded resources (`$id`, or `id` in draft 4) and anchors.
 * @param root - the tool's input schema
 * @throws {SchemaTooLarge} past {@link MAX_SCHEMA_NODES} schema objects
 */
export function readSchemaDocument(root: unknown): SchemaDocument {
  const draft = draftOf(root);
  const idKeyword = draft === '4' ? 'id' : '$id';
  const resources = new Map<string, unknown>();
  const anchors = new Map<string, unknown>();
  const bases = new WeakMap<object, string>();

  const ownBase = (schema: JsonObject, outerBase: string): string => {
    const id = schema[idKeyword];
    if (typeof id !== 'string' || id.startsWith('#')) return outerBase;
    return withoutFragment(id, outerBase) ?? outerBase;
  };

  const rootBase = isJsonObject(root) ? ownBase(root, DEFAULT_BASE) : DEFAULT_BASE;
  resources.set(DEFAULT_BASE, root);
  const pending: [unknown, string][] = [[root, DEFAULT_BASE]];
  let count = 0;
  let usesUnevaluated = false;
  while (pending.length > 0) {
    const [schema, outerBase] = pending.pop()!;
    // An object seen before is not read again: a schema built in code may contain itself.
    if (!isJsonObject(schema) || bases.has(schema)) continue;
    count += 1;
    if (count > MAX_SCHEMA_NODES) throw new SchemaTooLarge();
    const base = ownBase(schema, outerBase);
    bases.set(schema, base);
    usesUnevaluated ||=
      Object.hasOwn(schema, 'unevaluatedProperties') || Object.hasOwn(schema, 'unevaluatedItems');
    if (base !== outerBase || schema === root) resources.set(base, schema);
    const id = schema[idKeyword];
    // Before 2019-09 an anchor is an `$id` that is only a fragment.
    if (typeof id === 'string' && id.startsWith('#') && id.length > 1)
      anchors.set(base + id, schema);
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const anchor = schema[keyword];
      if (typeof anchor === 'string') anchors.set(`${base}#${anchor}`, schema);
    }
    for (const keyword of SCHEMA_KEYWORDS) {
      if (Object.hasOwn(schema, keyword)) pending.push([schema[keyword], base]);
    }
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const value = schema[keyword];
      if (Object.hasOwn(schema, keyword) && Array.isArray(value)) {
        for (const item of value) pending.push([item, base]);
      }
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const value = schema[keyword];
      if (Object.hasOwn(schema, keyword) && isJsonObject(value)) {
        for (const item of Object.values(value)) pending.push([item, base]);
      }
    }
  }

  return {
    root,
    draft,
    rootBase,
    usesUnevaluated,
    baseOf: (schema, outerBase) => bases.get(schema) ?? ownBase(schema, outerBase),
    resolve(reference, base) {
      let url: URL;
      try {
        url = new URL(reference, base);
      } catch {
        return undefined;
      }
      const fragment = decodeFragment(url.hash);
      url.hash = '';
      const resource = resources.has(url.href) ? resources.get(url.href) : undefined;
      if (fragment === undefined) return undefined;
      if (fragment === '' || fragment.startsWith('/')) {
        if (resource === undefined) return undefined;
        const schema = fragment === '' ? resource : followPointer(resource, fragment);
        if (schema === undefined) return undefined;
        return { schema, base: isJsonObject(schema) ? (bases.get(schema) ?? url.href) : url.href };
      }
      const anchored = anchors.get(`${url.href}#${fragment}`);
      if (anchored === undefined) return undefined;
      return { schema: anchored, base: bases.get(anchored as object) ?? url.href };
    },
  };
}

function draftOf(root: unknown): SchemaDraft {
  const declared = isJsonObject(root) && typeof root.$schema === 'string' ? root.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06')) return '6';
  if (declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

function withoutFragment(id: string, base: string): string | undefined {
  try {
    const url = new URL(id, base);
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

function decodeFragment(hash: string): string | undefined {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return undefined;
  }
}

/** A JSON Pointer (RFC 6901) followed from a value; `undefined` where it leads nowhere. */
function followPointer(value: unknown, pointer: string): unknown {
  let current = value;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      current = current[Number(key)];
    } else if (isJsonObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}
