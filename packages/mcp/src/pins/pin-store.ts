import type { PinnedFields } from './pinned-definition';

/** A definition trusted for a tool: the first one seen, or the last one approved. */
export interface PinnedEntry {
  /** `definitionHash` of `definition`. */
  hash: string;
  definition: PinnedFields;
  /** When it was pinned (ISO 8601). */
  at: string;
}

/** A definition the gateway saw and did not trust: the tool is quarantined until it is approved. */
export interface HeldEntry {
  hash: string;
  definition: PinnedFields;
  /** When the gateway first saw it (ISO 8601). */
  at: string;
  /** The name the model would know the tool by (`<server>__<tool>`), which `approve` takes. */
  exposedName: string;
  /** `changed`: it differs from the pinned one; `new`: a new tool of a known server, held by config. */
  reason: 'changed' | 'new';
}

/** What the store knows of one upstream tool. */
export interface PinRecord {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The tool's own name (a repeat in the same list: `name#2`, `name#3`...). */
  tool: string;
  pinned?: PinnedEntry;
  held?: HeldEntry;
}

/** One change to the pins; each applies on its own, against what the store holds then. */
export type PinChange =
  /** Pins a definition on first sight; does nothing when the tool has a pin already. */
  | { type: 'pin'; server: string; tool: string; entry: PinnedEntry }
  /** Holds a definition for approval, replacing one held before. */
  | { type: 'hold'; server: string; tool: string; entry: HeldEntry }
  /** Drops the held definition if it is still this one (the server went back to the pinned one). */
  | { type: 'release'; server: string; tool: string; hash: string }
  /** Pins the held definition if it is still this one (not a newer one nobody has seen). */
  | { type: 'approve'; server: string; tool: string; hash: string };

/**
 * Where pins and held definitions live: a file in the cache folder, Redis (shared by every
 * instance), or memory. The gateway polls `version()` and reloads on a change, so an approval
 * written by another process reaches it.
 */
export interface PinStore {
  /** Where the pins are, for messages (a file path, or Redis and its key prefix). */
  readonly location: string;
  /** Changes whenever what is stored changes; cheap (a `stat`, one Redis `GET`). */
  version(): Promise<string>;
  /**
   * Everything stored.
   * @throws {PinStoreError} when the pins cannot be read (a damaged file, Redis down)
   */
  load(): Promise<PinRecord[]>;
  /**
   * Applies changes atomically (all against the same stored state, none half-written).
   * @returns for each change, whether it changed anything
   * @throws {PinStoreError} when nothing could be written
   */
  update(changes: readonly PinChange[]): Promise<boolean[]>;
}

/** Pins that cannot be read or written; the message says where and why. */
export class PinStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PinStoreError';
  }
}

/** The key of a tool in a store: unambiguous for any server and tool name. */
export function pinKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}

/**
 * Applies changes to records keyed by {@link pinKey}, in place: the one rule every store follows.
 * @returns for each change, whether it changed anything
 */
export function applyPinChanges(
  records: Map<string, PinRecord>,
  changes: readonly PinChange[],
): boolean[] {
  return changes.map((change) => {
    const key = pinKey(change.server, change.tool);
    const record = records.get(key) ?? { server: change.server, tool: change.tool };
    switch (change.type) {
      case 'pin':
        if (record.pinned) return false;
        record.pinned = change.entry;
        break;
      case 'hold':
        record.held = change.entry;
        break;
      case 'release':
        if (record.held?.hash !== change.hash) return false;
        delete record.held;
        break;
      case 'approve': {
        const held = record.held;
        if (held?.hash !== change.hash) return false;
        record.pinned = {
          hash: held.hash,
          definition: held.definition,
          at: new Date().toISOString(),
        };
        delete record.held;
        break;
      }
    }
    records.set(key, record);
    return true;
  });
}

/**
 * Pins kept in this process only: what `--no-cache` gives. A definition that changes while the
 * gateway runs is still quarantined; one that changed between two runs is not seen, and a
 * quarantined tool is approved by restarting the gateway.
 */
export function createMemoryPinStore(): PinStore {
  const records = new Map<string, PinRecord>();
  let version = 0;
  return {
    location: 'memory (this process only)',
    async version() {
      return String(version);
    },
    async load() {
      return structuredClone([...records.values()]);
    },
    async update(changes) {
      const applied = applyPinChanges(records, structuredClone(changes));
      if (applied.includes(true)) version++;
      return applied;
    },
  };
}
