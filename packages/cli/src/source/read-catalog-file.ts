import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { JSONSchema } from 'tool-search-core';
import { CliError } from '../cli/cli-error';
import type { CatalogTool, LabelledQuery } from './catalog';
import { childPath, describeValue } from './json-path';

/** What a catalog file holds. */
export interface CatalogFile {
  /** The file's path as given. */
  file: string;
  /** The tools, when the file has them (`tools`, or the whole file as an array). */
  tools?: CatalogTool[];
  /** The labelled queries, when the file has them. */
  queries?: LabelledQuery[];
  /** The file's `name` field, or its base name without the extension. */
  name: string;
}

/** Human-readable reasons for the read errors people hit. */
const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied',
};

/**
 * Reads a catalog file: the data format `{ name?, tools: [...], queries?: [...] }`, an array of
 * tools, or `{ queries: [...] }` alone (labels for a catalog that comes from an MCP server). A tool
 * is `{ id, description?, inputSchema?, keywords? }`; MCP's `{ name, description, inputSchema }`,
 * Anthropic's `{ name, description, input_schema }` and OpenAI's
 * `{ type: 'function', function: { name, description, parameters } }` are read too.
 * @param file - the path
 * @throws {CliError} naming the file and the JSON path of the first problem
 */
export async function readCatalogFile(file: string): Promise<CatalogFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new CliError(
      `${file}: ${READ_ERRORS[code] ?? `cannot be read (${code || String(error)})`}`,
      {
        cause: error,
      },
    );
  }
  let value: unknown;
  try {
    // A byte-order mark (editors on Windows write one) is not JSON, but says nothing wrong.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(`${file}: is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseCatalogJson(value, file);
}

/**
 * Validates the parsed JSON of a catalog file (see {@link readCatalogFile}).
 * @param value - the parsed JSON
 * @param file - names the source in errors
 * @throws {CliError} naming the file and the JSON path of the first problem
 */
export function parseCatalogJson(value: unknown, file: string): CatalogFile {
  const fail = (path: string, problem: string): never => {
    throw new CliError(`${file}: ${path}: ${problem}`);
  };
  const fallbackName = basename(file, extname(file)) || 'catalog';
  if (Array.isArray(value)) return { file, tools: readTools(value, '$', fail), name: fallbackName };
  if (value === null || typeof value !== 'object') {
    return fail(
      '$',
      `must be an object with "tools" or an array of tools, got ${describeValue(value)}`,
    );
  }
  const root = value as Record<string, unknown>;
  if (root.tools === undefined && root.queries === undefined) {
    return fail('$', 'needs a "tools" array (or "queries" to label a live catalog)');
  }
  const result: CatalogFile = { file, name: fallbackName };
  if (root.name !== undefined) {
    if (typeof root.name !== 'string')
      fail('$.name', `must be a string, got ${describeValue(root.name)}`);
    else if (root.name.trim() !== '') result.name = root.name;
  }
  if (root.tools !== undefined) {
    if (!Array.isArray(root.tools))
      fail('$.tools', `must be an array, got ${describeValue(root.tools)}`);
    result.tools = readTools(root.tools as unknown[], '$.tools', fail);
  }
  if (root.queries !== undefined) {
    if (!Array.isArray(root.queries))
      fail('$.queries', `must be an array, got ${describeValue(root.queries)}`);
    result.queries = (root.queries as unknown[]).map((item, position) =>
      readQuery(item, childPath('$.queries', position), fail),
    );
  }
  return result;
}

type Fail = (path: string, problem: string) => never;

function readTools(items: readonly unknown[], path: string, fail: Fail): CatalogTool[] {
  const firstPath = new Map<string, string>();
  return items.map((item, position) => {
    const itemPath = childPath(path, position);
    const { tool, idPath } = readTool(item, itemPath, fail);
    const earlier = firstPath.get(tool.id);
    if (earlier !== undefined)
      fail(idPath, `${JSON.stringify(tool.id)} is also the id of ${earlier}`);
    firstPath.set(tool.id, itemPath);
    return tool;
  });
}

function readTool(value: unknown, path: string, fail: Fail): { tool: CatalogTool; idPath: string } {
  const entry = object(value, path, fail);
  // OpenAI's function-tool shape: the tool is under `function`.
  if (entry.type === 'function' && entry.function !== undefined) {
    const inner = object(entry.function, childPath(path, 'function'), fail);
    return readFields(inner, childPath(path, 'function'), fail);
  }
  return readFields(entry, path, fail);
}

function readFields(
  entry: Record<string, unknown>,
  path: string,
  fail: Fail,
): { tool: CatalogTool; idPath: string } {
  const idKey = entry.id !== undefined ? 'id' : entry.name !== undefined ? 'name' : undefined;
  if (idKey === undefined) return fail(path, 'needs an "id" (or "name") string');
  const id = entry[idKey];
  if (typeof id !== 'string' || id.trim() === '')
    fail(childPath(path, idKey), `must be a non-empty string, got ${describeValue(id)}`);
  const tool: CatalogTool = { id: id as string, description: '' };
  // MCP tools may carry only a title; the gateway searches it in place of a description.
  for (const key of ['description', 'title'] as const) {
    const text = entry[key];
    if (text === undefined || text === null) continue;
    if (typeof text !== 'string')
      fail(childPath(path, key), `must be a string, got ${describeValue(text)}`);
    if (key === 'description' || tool.description === '') tool.description = text as string;
    if (key === 'description') break;
  }
  const schemaKey = (['inputSchema', 'input_schema', 'parameters'] as const).find(
    (key) => entry[key] !== undefined && entry[key] !== null,
  );
  if (schemaKey !== undefined) {
    tool.inputSchema = object(entry[schemaKey], childPath(path, schemaKey), fail) as JSONSchema;
  }
  if (entry.keywords !== undefined) {
    tool.keywords = strings(entry.keywords, childPath(path, 'keywords'), fail);
  }
  return { tool, idPath: childPath(path, idKey) };
}

function readQuery(value: unknown, path: string, fail: Fail): LabelledQuery {
  const entry = object(value, path, fail);
  if (typeof entry.query !== 'string')
    fail(childPath(path, 'query'), `must be a string, got ${describeValue(entry.query)}`);
  const relevant = strings(entry.relevant, childPath(path, 'relevant'), fail);
  if (relevant.length === 0) fail(childPath(path, 'relevant'), 'must name at least one tool id');
  return { query: entry.query as string, relevant };
}

function object(value: unknown, path: string, fail: Fail): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(path, `must be an object, got ${describeValue(value)}`);
  return value as Record<string, unknown>;
}

function strings(value: unknown, path: string, fail: Fail): string[] {
  if (!Array.isArray(value))
    return fail(path, `must be an array of strings, got ${describeValue(value)}`);
  value.forEach((item, position) => {
    if (typeof item !== 'string')
      fail(childPath(path, position), `must be a string, got ${describeValue(item)}`);
  });
  return [...(value as string[])];
}
