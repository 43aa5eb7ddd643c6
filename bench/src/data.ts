/**
 * Reading the shared tool-retrieval data sets:
 * `{ name, source, tools: [{ id, description, inputSchema }], queries: [{ query, relevant }] }`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A tool as the data files describe it. */
export interface DataTool {
  id: string;
  description: string;
  inputSchema?: { readonly [key: string]: unknown };
}

/** A labelled query: the ids of the tools that answer it. */
export interface DataQuery {
  query: string;
  relevant: string[];
}

/** One data file. */
export interface DataSet {
  name: string;
  source: string;
  /** Where the file was read from. */
  file: string;
  tools: DataTool[];
  queries: DataQuery[];
}

/** The monorepo's root: this file is `<root>/bench/src/data.ts`. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The shared data folder, which sits beside the repository: `<root>/../shared/data`. */
export const DEFAULT_DATA_DIR = path.resolve(REPO_ROOT, '../shared/data');

/** The catalog the speed benchmark repeats. */
export const SPEED_DATA_FILE = path.join(DEFAULT_DATA_DIR, 'dev-bfcl.json');

/**
 * A data file or folder that is not there: the shared data sets live outside the repository, so
 * a fresh clone has none. Printed (the benchmarks' `console.error(error)`) as its message alone:
 * one line that says what to pass, not a trace of our own code.
 */
export class MissingDataError extends Error {
  override readonly name = 'MissingDataError';

  /** @param target - the file or folder that was looked for */
  constructor(target: string) {
    super(
      `bench: no data at ${target}. The tool-retrieval data sets are not in the repository; name yours: bench:quality takes files or folders as arguments, bench:speed and bench:cost take --data a.json,b.json (e.g. npm run bench:cost -- --data path/to/catalog.json)`,
    );
  }

  /** What `console.error` and `util.inspect` print. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.message;
  }
}

/**
 * Resolves command-line arguments (folders or files; relative to the directory the command was
 * started from) to the `.json` data files they name, sorted. No arguments means the default folder.
 * @throws {MissingDataError} when a file or folder is not there
 */
export function resolveDataFiles(args: readonly string[]): string[] {
  const base = process.env.INIT_CWD ?? process.cwd();
  const targets = args.length > 0 ? args.map((arg) => path.resolve(base, arg)) : [DEFAULT_DATA_DIR];
  const files: string[] = [];
  for (const target of targets) {
    if (!existsSync(target)) throw new MissingDataError(target);
    if (statSync(target).isDirectory()) {
      for (const entry of readdirSync(target).sort()) {
        if (entry.endsWith('.json')) files.push(path.join(target, entry));
      }
    } else {
      files.push(target);
    }
  }
  return files;
}

/**
 * Reads and checks one data file; throws with the file name when it does not fit the format.
 * @throws {MissingDataError} when the file is not there
 */
export function loadDataSet(file: string): DataSet {
  if (!existsSync(file)) throw new MissingDataError(file);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataSet>;
  if (!Array.isArray(raw.tools) || !Array.isArray(raw.queries)) {
    throw new Error(`${file}: expected { tools: [...], queries: [...] }`);
  }
  const ids = new Set<string>();
  for (const tool of raw.tools) {
    if (typeof tool?.id !== 'string') throw new Error(`${file}: a tool has no string id`);
    if (ids.has(tool.id)) throw new Error(`${file}: duplicate tool id ${tool.id}`);
    ids.add(tool.id);
  }
  for (const query of raw.queries) {
    if (typeof query?.query !== 'string' || !Array.isArray(query.relevant)) {
      throw new Error(`${file}: a query lacks { query, relevant }`);
    }
  }
  return {
    name: raw.name ?? path.basename(file, '.json'),
    source: raw.source ?? '',
    file,
    tools: raw.tools.map((tool) => ({ ...tool, description: tool.description ?? '' })),
    queries: raw.queries,
  };
}

/**
 * A catalog of `size` tools made by repeating `tools` with numbered ids (`${id}_${copy}`, copies
 * counted from 0); descriptions and schemas are shared, unchanged.
 */
export function repeatCatalog(tools: readonly DataTool[], size: number): DataTool[] {
  if (tools.length === 0) throw new Error('cannot repeat an empty catalog');
  const out: DataTool[] = [];
  for (let i = 0; i < size; i++) {
    const tool = tools[i % tools.length]!;
    out.push({ ...tool, id: `${tool.id}_${Math.floor(i / tools.length)}` });
  }
  return out;
}

/** `count` items spread evenly over `items` (all of them when there are fewer). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(items[Math.floor((i * items.length) / count)]!);
  return out;
}
