import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isPlainObject } from '../gateway/gateway-text';
import { applyPinChanges, type PinRecord, type PinStore, PinStoreError, pinKey } from './pin-store';

/** Written into the file; a file of another format is refused, never overwritten. */
const PIN_FILE_FORMAT = 1;
/** How long a writer waits for another's lock: writes take milliseconds, so this means a stuck one. */
const LOCK_WAIT = 5_000;
/** Between two tries for the lock. */
const LOCK_RETRY = 20;
/** A lock this old is left over by a writer that died holding it, and is taken over. */
const STALE_LOCK = 10_000;
/**
 * A pin file past this size is refused with a reason rather than read: two definitions per tool
 * of servers that may list 10 MiB each stay far below it, and reading gigabytes would stall.
 */
const MAX_PIN_FILE_BYTES = 128 * 2 ** 20;

/**
 * Pins in a JSON file (`pins.json` in the cache folder by default), written atomically (a new
 * file renamed over the old, so a reader never sees half of one) under a lock file, so the
 * gateway and `tool-search-mcp approve` never lose each other's changes. A damaged file is
 * refused with a reason and left as it is: it is the record of what was trusted.
 * @param file - the file; its folder is created on the first write
 * @example
 * const store = createFilePinStore(join(defaultCacheDir(), 'pins.json'));
 * const records = await store.load();
 */
export function createFilePinStore(file: string): PinStore {
  return {
    location: file,
    async version() {
      try {
        const info = await stat(file);
        return `${info.ino}:${info.size}:${info.mtimeMs}`;
      } catch (error) {
        return `unreadable:${(error as NodeJS.ErrnoException).code ?? 'error'}`;
      }
    },
    load: () => readPinFile(file),
    async update(changes) {
      const release = await lock(file);
      try {
        const records = new Map(
          (await readPinFile(file)).map((r) => [pinKey(r.server, r.tool), r]),
        );
        const applied = applyPinChanges(records, changes);
        if (applied.includes(true)) await writePinFile(file, [...records.values()]);
        return applied;
      } finally {
        await release();
      }
    },
  };
}

async function readPinFile(file: string): Promise<PinRecord[]> {
  let text: string;
  try {
    const info = await stat(file);
    if (info.size > MAX_PIN_FILE_BYTES)
      throw new PinStoreError(
        `${file} is over ${MAX_PIN_FILE_BYTES / 2 ** 20} MiB, which no pin file reaches`,
      );
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof PinStoreError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new PinStoreError(
      `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PinStoreError(`${file} is damaged: not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const problem = pinFileProblem(value);
  if (problem) throw new PinStoreError(`${file} is damaged: ${problem}`);
  return (value as { tools: PinRecord[] }).tools;
}

async function writePinFile(file: string, records: PinRecord[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  const text = `${JSON.stringify({ format: PIN_FILE_FORMAT, tools: records }, null, 1)}\n`;
  try {
    // Only its owner reads it: it lists the user's servers and their tools.
    await writeFile(temporary, text, { encoding: 'utf8', mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new PinStoreError(
      `${file} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      { cause: error },
    );
  }
}

/** Takes `<file>.lock` (created exclusively), waiting for another holder; resolves to its release. */
async function lock(file: string): Promise<() => Promise<void>> {
  const lockFile = `${file}.lock`;
  await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
  const deadline = Date.now() + LOCK_WAIT;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => unlink(lockFile).catch(() => undefined);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new PinStoreError(`${lockFile} could not be created (${code ?? String(error)})`, {
          cause: error,
        });
    }
    const held = await stat(lockFile).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK) {
      await unlink(lockFile).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline)
      throw new PinStoreError(
        `${lockFile} has been held by another process for over ${LOCK_WAIT / 1000} s; remove it if no gateway or approve is running`,
      );
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY));
  }
}

const HASH = /^[0-9a-f]{64}$/;

/** What is wrong with a parsed pin file, or `undefined` when it is one. */
function pinFileProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'not a JSON object';
  if (value.format !== PIN_FILE_FORMAT)
    return `"format" is ${JSON.stringify(value.format)}, not ${PIN_FILE_FORMAT} (a file of another version of the gateway?)`;
  if (!Array.isArray(value.tools)) return '"tools" is not an array';
  for (const [index, record] of value.tools.entries()) {
    const at = `tools[${index}]`;
    if (!isPlainObject(record)) return `${at} is not an object`;
    if (typeof record.server !== 'string' || typeof record.tool !== 'string')
      return `${at} needs "server" and "tool" strings`;
    for (const slot of ['pinned', 'held'] as const) {
      const entry = record[slot];
      if (entry === undefined) continue;
      const problem = entryProblem(entry, slot === 'held');
      if (problem) return `${at}.${slot}: ${problem}`;
    }
  }
  return undefined;
}

function entryProblem(entry: unknown, held: boolean): string | undefined {
  if (!isPlainObject(entry)) return 'not an object';
  if (typeof entry.hash !== 'string' || !HASH.test(entry.hash))
    return '"hash" is not a SHA-256 in hex';
  if (!isPlainObject(entry.definition) || typeof entry.definition.name !== 'string')
    return '"definition" is not a tool definition';
  if (typeof entry.at !== 'string') return '"at" is not a date';
  if (!held) return undefined;
  if (typeof entry.exposedName !== 'string') return '"exposedName" is not a string';
  if (entry.reason !== 'changed' && entry.reason !== 'new')
    return '"reason" is not "changed" or "new"';
  return undefined;
}
