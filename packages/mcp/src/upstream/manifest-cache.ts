import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { isHttpUpstream, type UpstreamConfig } from '../config/gateway-config';

/** Written into each manifest file; a file with another version is ignored. */
const MANIFEST_FORMAT = 1;

/** Where upstream tool lists are kept between runs, keyed by the upstream's config entry. */
export interface ManifestCache {
  /** The folder the manifests are written to. */
  readonly dir: string;
  /** The cached tool list of an upstream, or `undefined` when none is cached (or the file is unreadable). */
  read(upstream: UpstreamConfig): Promise<Tool[] | undefined>;
  /** Stores an upstream's tool list (atomically: a reader never sees half a file). */
  write(upstream: UpstreamConfig, tools: readonly Tool[]): Promise<void>;
}

/**
 * The per-user default cache folder: `$XDG_CACHE_HOME/tool-search-mcp`, else
 * `~/.cache/tool-search-mcp`.
 * @param env - the environment to read `XDG_CACHE_HOME` from
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'tool-search-mcp');
}

/**
 * The cache key of an upstream: a hash of what starts or reaches it (command, args, env, cwd; or
 * url, headers, type). Changing any of those starts from a fresh manifest; `allowTools` and
 * `denyTools` are applied after the cache and do not change the key. Secrets in `env` or `headers`
 * only enter the hash, never the file.
 */
export function manifestKey(upstream: UpstreamConfig): string {
  const identity = isHttpUpstream(upstream)
    ? { url: upstream.url, headers: upstream.headers ?? {}, type: upstream.type ?? 'http' }
    : {
        command: upstream.command,
        args: upstream.args ?? [],
        env: upstream.env ?? {},
        cwd: upstream.cwd ?? null,
      };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex').slice(0, 32);
}

/**
 * A manifest cache in a folder (created on the first write).
 * @param dir - the folder, e.g. {@link defaultCacheDir}()
 * @example
 * const cache = createManifestCache(defaultCacheDir());
 * const tools = await cache.read({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
 */
export function createManifestCache(dir: string): ManifestCache {
  const fileOf = (upstream: UpstreamConfig) => join(dir, `${manifestKey(upstream)}.json`);
  return {
    dir,
    async read(upstream) {
      try {
        const parsed = JSON.parse(await readFile(fileOf(upstream), 'utf8')) as unknown;
        return isManifest(parsed) ? parsed.tools : undefined;
      } catch {
        return undefined;
      }
    },
    async write(upstream, tools) {
      await mkdir(dir, { recursive: true });
      const file = fileOf(upstream);
      const temporary = `${file}.${randomUUID()}.tmp`;
      const manifest = { format: MANIFEST_FORMAT, savedAt: new Date().toISOString(), tools };
      await writeFile(temporary, JSON.stringify(manifest), 'utf8');
      await rename(temporary, file);
    },
  };
}

function isManifest(value: unknown): value is { tools: Tool[] } {
  if (value === null || typeof value !== 'object') return false;
  const { format, tools } = value as { format?: unknown; tools?: unknown };
  return (
    format === MANIFEST_FORMAT &&
    Array.isArray(tools) &&
    tools.every(
      (tool) =>
        tool !== null && typeof tool === 'object' && typeof (tool as Tool).name === 'string',
    )
  );
}

/** JSON with object keys sorted, so equal entries hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([left], [right]) => (left < right ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
