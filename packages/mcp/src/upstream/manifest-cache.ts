import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { isHttpUpstream, type UpstreamConfig } from '../config/gateway-config';
import { type ListCacheHints, listCacheHintsOf } from './list-cache-hints';

/** Written into each manifest file; a file with another version is ignored. */
const MANIFEST_FORMAT = 1;

/** An upstream's cached tool list, and what its server said about caching it. */
export interface CachedManifest extends ListCacheHints {
  tools: Tool[];
  /** When it was written (ISO 8601). */
  savedAt: string;
}

/** Where upstream tool lists are kept between runs, keyed by the upstream's config entry. */
export interface ManifestCache {
  /** The folder the manifests are written to. */
  readonly dir: string;
  /**
   * The cached tool list of an upstream, or `undefined` when none is cached, the file is
   * unreadable, or the server's `ttlMs` for it has passed since it was written.
   */
  read(upstream: UpstreamConfig): Promise<Tool[] | undefined>;
  /** As `read`, with the server's cache hints; a cache without it gives no hints. */
  readManifest?(upstream: UpstreamConfig): Promise<CachedManifest | undefined>;
  /**
   * Stores an upstream's tool list (atomically: a reader never sees half a file), with its
   * server's cache hints: a `ttlMs` bounds how long it is used, and a list that is not
   * `cacheScope: "public"` is written readable by its owner only.
   */
  write(upstream: UpstreamConfig, tools: readonly Tool[], hints?: ListCacheHints): Promise<void>;
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
  const readManifest = async (upstream: UpstreamConfig): Promise<CachedManifest | undefined> => {
    try {
      const parsed = JSON.parse(await readFile(fileOf(upstream), 'utf8')) as unknown;
      if (!isManifest(parsed)) return undefined;
      const { tools } = parsed;
      const savedAt = typeof parsed.savedAt === 'string' ? parsed.savedAt : '';
      const hints = listCacheHintsOf(parsed);
      // The server's ttlMs bounds the entry's life (0: stale at once); without one, the list is
      // kept until the server's config entry changes, and refreshed whenever it runs.
      if (hints.ttlMs !== undefined && !(Date.parse(savedAt) + hints.ttlMs > Date.now()))
        return undefined;
      return { tools, savedAt, ...hints };
    } catch {
      return undefined;
    }
  };
  return {
    dir,
    readManifest,
    async read(upstream) {
      return (await readManifest(upstream))?.tools;
    },
    async write(upstream, tools, hints = {}) {
      await mkdir(dir, { recursive: true });
      const file = fileOf(upstream);
      const temporary = `${file}.${randomUUID()}.tmp`;
      const manifest = {
        format: MANIFEST_FORMAT,
        savedAt: new Date().toISOString(),
        ...listCacheHintsOf(hints),
        tools,
      };
      // cacheScope "private" (or none, which the SDK reads as private): no other user of the
      // machine may read it, whatever folder `--cache` names.
      const mode = hints.cacheScope === 'public' ? 0o644 : 0o600;
      await writeFile(temporary, JSON.stringify(manifest), { encoding: 'utf8', mode });
      await rename(temporary, file);
    },
  };
}

function isManifest(value: unknown): value is { tools: Tool[]; savedAt?: unknown } {
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
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([left], [right]) => (left < right ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
