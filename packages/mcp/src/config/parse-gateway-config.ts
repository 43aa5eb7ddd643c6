import { dirname, isAbsolute, resolve } from 'node:path';
import { childPath, GatewayConfigError } from './config-error';
import { envPatternProblem } from './env-patterns';
import { expandVariables } from './expand-variables';
import type {
  EmbeddingsConfig,
  GatewayConfig,
  HttpUpstreamConfig,
  StdioUpstreamConfig,
  StorageConfig,
  UpstreamConfig,
} from './gateway-config';
import { readConfigFile } from './read-config-file';
import { readDefinitionPins } from './read-definition-pins';
import { readToolSearch } from './read-tool-search';
import { readTracing } from './read-tracing';
import { rememberVariables } from './variable-values';

/** A config that passed validation, with the warnings (unknown keys) found on the way. */
export interface ParsedGatewayConfig {
  config: GatewayConfig;
  /** One line per ignored key, naming the file and the JSON path. */
  warnings: string[];
}

/** Options of {@link parseGatewayConfig}. */
export interface ParseGatewayConfigOptions {
  /**
   * Names the source in errors and warnings.
   * @default 'config'
   */
  file?: string;
  /** Folder that relative `cwd` values are resolved against; without it they are kept as given. */
  baseDir?: string;
  /**
   * Where `${NAME}` in an upstream's `env`, `headers` and `url` is read; a variable that is not
   * set (and has no `${NAME:-default}`) is a config error naming it.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
}

/** Keys MCP clients write into `mcpServers` entries that mean nothing to the gateway: accepted silently. */
const CLIENT_ONLY_KEYS = new Set([
  'disabled',
  'autoApprove',
  'alwaysAllow',
  'timeout',
  'description',
  'transport',
]);
const STDIO_KEYS = new Set([
  'command',
  'args',
  'env',
  'inheritEnv',
  'withholdEnv',
  'cwd',
  'type',
  'allowTools',
  'denyTools',
  'connectTimeout',
]);
const HTTP_KEYS = new Set(['url', 'headers', 'type', 'allowTools', 'denyTools', 'connectTimeout']);
for (const keys of [STDIO_KEYS, HTTP_KEYS]) keys.add('alwaysLoadHint');
const REDIS_STORAGE_KEYS = new Set(['type', 'url', 'keyPrefix', 'ttl', 'timeout']);
const EMBEDDINGS_KEYS = new Set([
  'url',
  'model',
  'apiKeyEnv',
  'apiKey',
  'headers',
  'dimensions',
  'batchSize',
  'timeout',
]);
/** Timers fire at once beyond this delay (a signed 32-bit count of ms). */
const MAX_TIMER_DELAY = 2_147_483_647;
/** What shells and `process.env` accept as a variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates a gateway config object (the parsed JSON of a config file).
 * @param value - the parsed JSON
 * @param options - the file name for messages, the folder for relative `cwd`
 * @returns the typed config and warnings for unknown keys
 * @throws {GatewayConfigError} naming the JSON path of the first problem
 * @example
 * const { config, warnings } = parseGatewayConfig(JSON.parse(text), { file: 'gateway.json' });
 */
export function parseGatewayConfig(
  value: unknown,
  options: ParseGatewayConfigOptions = {},
): ParsedGatewayConfig {
  const reader = new ConfigReader(options.file ?? 'config');
  const root = reader.object(value, '$');
  const sections = [
    'mcpServers',
    'toolSearch',
    'storage',
    'embeddings',
    'definitionPins',
    'tracing',
  ];
  reader.unknownKeys(root, '$', new Set(sections));
  const serversValue = root.mcpServers;
  if (serversValue === undefined) reader.fail('$', 'needs an "mcpServers" object');
  const servers = reader.object(serversValue, '$.mcpServers');
  const mcpServers: Record<string, UpstreamConfig> = {};
  for (const [name, entry] of Object.entries(servers)) {
    const path = childPath('$.mcpServers', name);
    if (name.trim() === '') reader.fail(path, 'a server name must not be empty');
    const upstream = readUpstream(reader, entry, path, {
      baseDir: options.baseDir,
      env: options.env ?? process.env,
    });
    if (upstream) Object.defineProperty(mcpServers, name, { value: upstream, enumerable: true });
  }
  const config: GatewayConfig = { mcpServers };
  if (root.toolSearch !== undefined)
    config.toolSearch = readToolSearch(reader, root.toolSearch, '$.toolSearch');
  if (root.storage !== undefined) config.storage = readStorage(reader, root.storage, '$.storage');
  if (root.embeddings !== undefined)
    config.embeddings = readEmbeddings(reader, root.embeddings, '$.embeddings');
  if (root.definitionPins !== undefined)
    config.definitionPins = readDefinitionPins(reader, root.definitionPins, options.baseDir);
  if (root.tracing !== undefined) config.tracing = readTracing(reader, root.tracing);
  return { config, warnings: reader.warnings };
}

/**
 * Reads and validates a gateway config file. Relative `cwd` values are taken from the file's folder.
 * @param file - path of a JSON file with `mcpServers` (and optionally `toolSearch`)
 * @throws {GatewayConfigError} when the file cannot be read, is not JSON, or is not a valid config
 * @example
 * const { config, warnings } = await loadGatewayConfig('gateway.json');
 */
export async function loadGatewayConfig(
  file: string,
  options: Pick<ParseGatewayConfigOptions, 'env'> = {},
): Promise<ParsedGatewayConfig> {
  const value = await readConfigFile(file);
  return parseGatewayConfig(value, { ...options, file, baseDir: dirname(resolve(file)) });
}

function readUpstream(
  reader: ConfigReader,
  value: unknown,
  path: string,
  context: { baseDir: string | undefined; env: NodeJS.ProcessEnv },
): UpstreamConfig | undefined {
  const { baseDir, env } = context;
  // What the entry's variables held: logs and errors about it show `${NAME}` in their place.
  const variables = new Map<string, string>();
  const expand = (text: string, at: string): string => {
    const result = expandVariables(text, env);
    if ('problem' in result) reader.fail(at, result.problem);
    for (const [name, held] of result.variables) variables.set(name, held);
    return result.value;
  };
  const expandRecord = (record: Record<string, string>, at: string): Record<string, string> => {
    const expanded: Record<string, string> = {};
    for (const [key, text] of Object.entries(record))
      Object.defineProperty(expanded, key, {
        value: expand(text, childPath(at, key)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return expanded;
  };
  const entry = reader.object(value, path);
  if (entry.disabled === true) return undefined;
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand === hasUrl) {
    reader.fail(path, 'needs either "command" (a program to start) or "url" (an HTTP endpoint)');
  }
  const rules = {
    ...(entry.allowTools !== undefined && {
      allowTools: reader.strings(entry.allowTools, childPath(path, 'allowTools')),
    }),
    ...(entry.denyTools !== undefined && {
      denyTools: reader.strings(entry.denyTools, childPath(path, 'denyTools')),
    }),
    ...(entry.connectTimeout !== undefined && {
      connectTimeout: reader.integer(entry.connectTimeout, childPath(path, 'connectTimeout'), 1),
    }),
    ...(entry.alwaysLoadHint !== undefined && {
      alwaysLoadHint: reader.boolean(entry.alwaysLoadHint, childPath(path, 'alwaysLoadHint')),
    }),
  };
  if (hasCommand) {
    reader.unknownKeys(entry, path, STDIO_KEYS, CLIENT_ONLY_KEYS);
    if (entry.type !== undefined && entry.type !== 'stdio') {
      reader.fail(childPath(path, 'type'), `must be "stdio" for an entry with "command"`);
    }
    const upstream: StdioUpstreamConfig = {
      command: reader.nonEmptyString(entry.command, childPath(path, 'command')),
      ...rules,
    };
    if (entry.args !== undefined)
      upstream.args = reader.strings(entry.args, childPath(path, 'args'));
    if (entry.env !== undefined)
      upstream.env = expandRecord(
        reader.stringRecord(entry.env, childPath(path, 'env')),
        childPath(path, 'env'),
      );
    for (const key of ['inheritEnv', 'withholdEnv'] as const) {
      if (entry[key] === undefined) continue;
      upstream[key] = reader.strings(entry[key], childPath(path, key));
      upstream[key].forEach((pattern, position) => {
        const problem = envPatternProblem(pattern);
        if (problem) reader.fail(childPath(childPath(path, key), position), problem);
      });
    }
    if (entry.cwd !== undefined) {
      const cwd = reader.nonEmptyString(entry.cwd, childPath(path, 'cwd'));
      upstream.cwd = baseDir !== undefined && !isAbsolute(cwd) ? resolve(baseDir, cwd) : cwd;
    }
    rememberVariables(upstream, variables);
    return upstream;
  }
  reader.unknownKeys(entry, path, HTTP_KEYS, CLIENT_ONLY_KEYS);
  const written = reader.nonEmptyString(entry.url, childPath(path, 'url'));
  const url = expand(written, childPath(path, 'url'));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // What the file says: the value a variable held may be a secret (a key in the query).
    const read = written === url ? '' : ' once its variables are read';
    reader.fail(childPath(path, 'url'), `is not a URL${read}: ${quote(written)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    reader.fail(childPath(path, 'url'), 'must be an http: or https: URL');
  }
  const upstream: HttpUpstreamConfig = { url, ...rules };
  if (entry.headers !== undefined)
    upstream.headers = expandRecord(
      reader.stringRecord(entry.headers, childPath(path, 'headers')),
      childPath(path, 'headers'),
    );
  if (entry.type !== undefined) {
    if (entry.type !== 'http' && entry.type !== 'streamable-http' && entry.type !== 'sse') {
      reader.fail(
        childPath(path, 'type'),
        'must be "http", "streamable-http" or "sse" for an entry with "url"',
      );
    }
    upstream.type = entry.type;
  }
  rememberVariables(upstream, variables);
  return upstream;
}

function readStorage(reader: ConfigReader, value: unknown, path: string): StorageConfig {
  const entry = reader.object(value, path);
  if (entry.type === undefined) reader.fail(path, 'needs "type": "redis"');
  if (entry.type !== 'redis') {
    reader.fail(
      childPath(path, 'type'),
      `must be "redis" (the only shared storage), got ${describe(entry.type)}`,
    );
  }
  reader.unknownKeys(entry, path, REDIS_STORAGE_KEYS);
  const url = reader.nonEmptyString(entry.url, childPath(path, 'url'));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    reader.fail(childPath(path, 'url'), `is not a URL: ${quote(url)}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    reader.fail(childPath(path, 'url'), 'must be a redis: or rediss: URL');
  }
  const storage: StorageConfig = { type: 'redis', url };
  if (entry.keyPrefix !== undefined) {
    const keyPrefix = entry.keyPrefix;
    if (typeof keyPrefix !== 'string' || /[{}]/.test(keyPrefix))
      reader.fail(
        childPath(path, 'keyPrefix'),
        `must be a string without { or } (they mark the key's Redis Cluster hash tag), got ${describe(keyPrefix)}`,
      );
    storage.keyPrefix = keyPrefix;
  }
  if (entry.ttl !== undefined) storage.ttl = reader.integer(entry.ttl, childPath(path, 'ttl'), 0);
  if (entry.timeout !== undefined)
    storage.timeout = reader.integer(entry.timeout, childPath(path, 'timeout'), 1);
  return storage;
}

function readEmbeddings(reader: ConfigReader, value: unknown, path: string): EmbeddingsConfig {
  const entry = reader.object(value, path);
  reader.unknownKeys(entry, path, EMBEDDINGS_KEYS);
  const url = reader.nonEmptyString(entry.url, childPath(path, 'url'));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    reader.fail(childPath(path, 'url'), `is not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    reader.fail(childPath(path, 'url'), 'must be an http: or https: URL');
  }
  const embeddings: EmbeddingsConfig = {
    url,
    model: reader.nonEmptyString(entry.model, childPath(path, 'model')),
  };
  if (entry.apiKeyEnv !== undefined && entry.apiKey !== undefined) {
    reader.fail(
      path,
      'give either "apiKeyEnv" (the environment variable holding the key) or "apiKey", not both',
    );
  }
  if (entry.apiKeyEnv !== undefined) {
    const name = entry.apiKeyEnv;
    if (typeof name !== 'string' || !ENV_NAME.test(name)) {
      reader.fail(
        childPath(path, 'apiKeyEnv'),
        `must be the name of an environment variable (letters, digits, _), got ${describe(name)}`,
      );
    }
    embeddings.apiKeyEnv = name;
  }
  if (entry.apiKey !== undefined)
    embeddings.apiKey = reader.nonEmptyString(entry.apiKey, childPath(path, 'apiKey'));
  if (entry.headers !== undefined)
    embeddings.headers = reader.stringRecord(entry.headers, childPath(path, 'headers'));
  if (entry.dimensions !== undefined)
    embeddings.dimensions = reader.integer(entry.dimensions, childPath(path, 'dimensions'), 1);
  if (entry.batchSize !== undefined)
    embeddings.batchSize = reader.integer(entry.batchSize, childPath(path, 'batchSize'), 1);
  if (entry.timeout !== undefined) {
    const timeout = reader.integer(entry.timeout, childPath(path, 'timeout'), 1);
    if (timeout > MAX_TIMER_DELAY)
      reader.fail(childPath(path, 'timeout'), `must be at most ${MAX_TIMER_DELAY} ms`);
    embeddings.timeout = timeout;
  }
  return embeddings;
}

/** Type checks that throw a {@link GatewayConfigError} at a JSON path, and collect warnings. */
class ConfigReader {
  readonly warnings: string[] = [];
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  fail(path: string, problem: string): never {
    throw new GatewayConfigError({ file: this.#file, path, problem });
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      this.fail(path, `must be an object, got ${describe(value)}`);
    return value as Record<string, unknown>;
  }

  nonEmptyString(value: unknown, path: string): string {
    if (typeof value !== 'string' || value.trim() === '')
      this.fail(path, `must be a non-empty string, got ${describe(value)}`);
    return value;
  }

  strings(value: unknown, path: string): string[] {
    if (!Array.isArray(value))
      this.fail(path, `must be an array of strings, got ${describe(value)}`);
    value.forEach((item, position) => {
      if (typeof item !== 'string')
        this.fail(childPath(path, position), `must be a string, got ${describe(item)}`);
    });
    return [...(value as string[])];
  }

  stringRecord(value: unknown, path: string): Record<string, string> {
    const record: Record<string, string> = {};
    for (const [key, item] of Object.entries(this.object(value, path))) {
      if (typeof item !== 'string')
        this.fail(childPath(path, key), `must be a string, got ${describe(item)}`);
      Object.defineProperty(record, key, { value: item, enumerable: true });
    }
    return record;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value !== 'boolean')
      this.fail(path, `must be true or false, got ${describe(value)}`);
    return value;
  }

  integer(value: unknown, path: string, minimum: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum)
      this.fail(path, `must be an integer >= ${minimum}, got ${describe(value)}`);
    return value;
  }

  unknownKeys(
    entry: Record<string, unknown>,
    path: string,
    known: ReadonlySet<string>,
    tolerated: ReadonlySet<string> = new Set(),
  ): void {
    for (const key of Object.keys(entry)) {
      if (known.has(key) || tolerated.has(key)) continue;
      this.warnings.push(`${this.#file}: ${childPath(path, key)}: unknown key, ignored`);
    }
  }
}

/** Characters of a value quoted in a message. */
const MAX_QUOTED = 200;

/** A string as a message quotes it: in JSON quotes, cut to 200 characters. */
function quote(text: string): string {
  return text.length > MAX_QUOTED
    ? `${JSON.stringify(text.slice(0, MAX_QUOTED))}…`
    : JSON.stringify(text);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
