/**
 * A configuration that cannot be used. Its message names the file and the JSON path of the problem
 * (`gateway.json: $.mcpServers.github.args[1]: must be a string`).
 */
export class GatewayConfigError extends Error {
  /** The file the config was read from, or a label such as `"config"` for an object. */
  readonly file: string;
  /** JSONPath of the offending value, `$` for the whole document. */
  readonly path: string;

  constructor(options: { file: string; path: string; problem: string; cause?: unknown }) {
    super(`${options.file}: ${options.path}: ${options.problem}`, { cause: options.cause });
    this.name = 'GatewayConfigError';
    this.file = options.file;
    this.path = options.path;
  }
}

/** Characters of a key shown in a path: a megabyte-long server name must not make a megabyte message. */
const MAX_PATH_KEY = 80;

/**
 * Appends a key to a JSONPath, bracket-quoting keys that are not plain identifiers and cutting
 * keys longer than 80 characters (marked with `…`).
 */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (key.length > MAX_PATH_KEY) return `${path}[${JSON.stringify(key.slice(0, MAX_PATH_KEY))}…]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}
