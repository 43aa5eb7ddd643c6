import type { Tool } from '@modelcontextprotocol/client';
import { oneLine } from '../gateway/gateway-text';
import { describeChange } from './definition-diff';
import type { HeldEntry, PinChange, PinRecord, PinStore } from './pin-store';
import { pinKey } from './pin-store';
import { definitionHash, pinnedFieldsOf } from './pinned-definition';

/** What the gateway does with a tool first seen on a server it has pinned tools of. */
export type NewToolPolicy = 'trust' | 'quarantine';

/** Options of {@link DefinitionPins}. */
export interface DefinitionPinsOptions {
  /** Where pins live: `createFilePinStore`, `createRedisPinStore` or `createMemoryPinStore`. */
  store: PinStore;
  /**
   * `trust`: a new tool of a server that has pinned tools is pinned on first sight, as every tool
   * of a new server is; `quarantine`: it waits for approval.
   * @default 'trust'
   */
  newTools?: NewToolPolicy;
  /**
   * The command that approves exposed names, as the log shows it
   * (`tool-search-mcp approve --config gateway.json fixture__echo`).
   * @default a sentence saying the gateway must be restarted (pins kept in memory)
   */
  approveCommand?: (names: readonly string[]) => string;
  /**
   * How often (ms) the store is asked whether it changed: an approval made by another process
   * (`tool-search-mcp approve`, another instance) takes effect within this time.
   * @default 1_000
   */
  pollInterval?: number;
}

/** The tools of one rebuild, as the upstream manager lists them (server order, then list order). */
export interface ScreenedTool {
  /** The exposed name. */
  name: string;
  server: string;
  definition: Tool;
}

/** Default poll: one `stat` (or one Redis `GET`) a second is nothing, and a second is prompt. */
const DEFAULT_POLL_INTERVAL = 1_000;

/**
 * The trust side of the upstream manager: keeps a hash of each upstream tool's definition from
 * the first time it is seen, and holds (quarantines) a tool whose definition no longer matches its
 * pin until it is approved. The upstream manager leaves held tools out of its tool list, so to
 * everything above it (search, load, every call path) a held tool does not exist.
 *
 * Decisions are made against the pins in memory, so a tool list is screened synchronously; the
 * pins of a first sight and the definitions held are written to the store in the background, and
 * the store is polled so that approvals made elsewhere arrive.
 */
export class DefinitionPins {
  readonly #store: PinStore;
  readonly #newTools: NewToolPolicy;
  readonly #approveCommand: ((names: readonly string[]) => string) | undefined;
  readonly #pollInterval: number;
  readonly #log: (message: string) => void;
  readonly #listeners = new Set<() => void>();
  /** Each definition object's hash, so a rebuild hashes only definitions it has not seen. */
  readonly #hashes = new WeakMap<Tool, string>();
  /** Held definitions already logged (key and hash), so each is reported once per process. */
  readonly #reported = new Set<string>();
  /**
   * Definitions this process held (key and hash). Only those are released when the server goes
   * back to the pinned one: with shared pins, another instance's server may still send the held one.
   */
  readonly #ownHolds = new Set<string>();
  #records = new Map<string, PinRecord>();
  /** Servers with at least one pin: their new tools follow `newTools`. */
  #known = new Set<string>();
  #readable = false;
  #version: string | undefined;
  #lastProblem: string | undefined;
  #started: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: DefinitionPinsOptions & { log: (message: string) => void }) {
    this.#store = options.store;
    this.#newTools = options.newTools ?? 'trust';
    this.#approveCommand = options.approveCommand;
    this.#pollInterval = options.pollInterval ?? DEFAULT_POLL_INTERVAL;
    this.#log = options.log;
  }

  /** Where the pins are kept, for messages. */
  get location(): string {
    return this.#store.location;
  }

  /**
   * Reads the pins once and starts polling. Never throws: pins that cannot be read are logged,
   * and until they can be, every upstream tool is held (a damaged file must not reset what was
   * trusted to "first sight").
   */
  start(): Promise<void> {
    this.#started ??= this.#reload().then(() => {
      this.#timer = setInterval(() => void this.#poll(), this.#pollInterval);
      this.#timer.unref?.();
    });
    return this.#started;
  }

  /** Called after the pins changed in the store (an approval, another instance's pin). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Decides which tools are offered: pins each tool seen for the first time, and holds each whose
   * definition differs from its pin (or, with `newTools: 'quarantine'`, a new tool of a known
   * server), logging it once with what changed and the command that approves it.
   * @returns the exposed names of the held tools
   */
  screen(tools: readonly ScreenedTool[]): Set<string> {
    const held = new Set<string>();
    if (!this.#readable) {
      for (const tool of tools) held.add(tool.name);
      return held;
    }
    const changes: PinChange[] = [];
    const occurrences = new Map<string, number>();
    const knownBefore = new Set(this.#known);
    for (const tool of tools) {
      const { server, definition } = tool;
      const repeat = `${server}\u0000${definition.name}`;
      const occurrence = (occurrences.get(repeat) ?? 0) + 1;
      occurrences.set(repeat, occurrence);
      const key = occurrence === 1 ? definition.name : `${definition.name}#${occurrence}`;
      const hash = this.#hashOf(definition);
      const record = this.#recordOf(server, key);
      const at = new Date().toISOString();
      if (record.pinned?.hash === hash) {
        if (this.#holds(record)) changes.push(this.#release(record));
        continue;
      }
      const hold =
        record.pinned !== undefined || (this.#newTools === 'quarantine' && knownBefore.has(server));
      if (!hold) {
        record.pinned = { hash, definition: pinnedFieldsOf(definition), at };
        this.#known.add(server);
        changes.push({ type: 'pin', server, tool: key, entry: record.pinned });
        if (this.#holds(record)) changes.push(this.#release(record));
        continue;
      }
      held.add(tool.name);
      if (record.held?.hash === hash) {
        this.#report(record, tool.name);
        continue;
      }
      const entry: HeldEntry = {
        hash,
        definition: pinnedFieldsOf(definition),
        at,
        exposedName: tool.name,
        reason: record.pinned ? 'changed' : 'new',
      };
      record.held = entry;
      this.#ownHolds.add(`${pinKey(server, key)}\u0000${hash}`);
      changes.push({ type: 'hold', server, tool: key, entry });
      this.#report(record, tool.name);
    }
    if (changes.length > 0) this.#write(changes);
    return held;
  }

  /** Resolves once the pins and held definitions decided so far are written (or failed to be). */
  written(): Promise<void> {
    return this.#writes;
  }

  /** Stops polling and waits for the writes in flight. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#listeners.clear();
    await this.#writes;
  }

  #hashOf(definition: Tool): string {
    let hash = this.#hashes.get(definition);
    if (hash === undefined) {
      hash = definitionHash(pinnedFieldsOf(definition));
      this.#hashes.set(definition, hash);
    }
    return hash;
  }

  #recordOf(server: string, tool: string): PinRecord {
    const key = pinKey(server, tool);
    let record = this.#records.get(key);
    if (!record) {
      record = { server, tool };
      this.#records.set(key, record);
    }
    return record;
  }

  /** Whether the record holds a definition this process held. */
  #holds(record: PinRecord): boolean {
    return (
      record.held !== undefined &&
      this.#ownHolds.has(`${pinKey(record.server, record.tool)}\u0000${record.held.hash}`)
    );
  }

  #release(record: PinRecord): PinChange {
    const hash = record.held!.hash;
    delete record.held;
    return { type: 'release', server: record.server, tool: record.tool, hash };
  }

  #report(record: PinRecord, exposedName: string): void {
    const held = record.held!;
    const key = `${pinKey(record.server, record.tool)}\u0000${held.hash}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    const what =
      held.reason === 'changed'
        ? `changed since it was pinned: ${describeChange(record.pinned?.definition, held.definition)}`
        : `is a new tool of a known server (${describeChange(undefined, held.definition)}), and definitionPins.newTools is "quarantine"`;
    const approve = this.#approveCommand
      ? `approve it with: ${this.#approveCommand([exposedName])}`
      : 'these pins are kept in memory only (--no-cache), so restarting the gateway trusts it';
    this.#log(
      `pins: "${exposedName}" (server "${record.server}") ${what}. It is quarantined: not searchable, loadable or callable, and unloaded where it was loaded; ${approve}`,
    );
  }

  #write(changes: PinChange[]): void {
    this.#writes = this.#writes.then(async () => {
      try {
        const applied = await this.#store.update(changes);
        // A pin refused: another instance pinned another definition first, which is the one in force.
        if (changes.some((change, index) => change.type === 'pin' && !applied[index]))
          await this.#reload();
      } catch (error) {
        this.#log(
          `pins: ${oneLine(error)}; what this gateway decided holds until it stops, but is not stored`,
        );
      }
    });
  }

  async #poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const version = await this.#store.version().catch(() => undefined);
      if (version === undefined || version !== this.#version) await this.#reload();
    } finally {
      this.#polling = false;
    }
  }

  /** Reads the store; on success the pins in memory are replaced and listeners told. */
  async #reload(): Promise<void> {
    let version: string;
    let records: PinRecord[];
    try {
      version = await this.#store.version();
      records = await this.#store.load();
    } catch (error) {
      const problem = oneLine(error);
      if (problem !== this.#lastProblem) {
        this.#lastProblem = problem;
        this.#log(
          this.#readable
            ? `pins: ${problem}; the pins read before stay in force`
            : `pins: ${problem}. No upstream tool is offered until the pins can be read (repair the file, or remove it to trust every tool's current definition again)`,
        );
      }
      return;
    }
    this.#records = new Map(records.map((record) => [pinKey(record.server, record.tool), record]));
    this.#known = new Set(records.filter((record) => record.pinned).map((record) => record.server));
    this.#version = version;
    this.#readable = true;
    if (this.#lastProblem !== undefined) {
      this.#lastProblem = undefined;
      this.#log(`pins: ${this.#store.location} can be read again`);
    }
    for (const listener of this.#listeners) listener();
  }
}
