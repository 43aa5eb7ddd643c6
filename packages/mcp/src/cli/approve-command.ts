import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { GatewayConfigError } from '../config/config-error';
import type { GatewayConfig } from '../config/gateway-config';
import { parseGatewayConfig } from '../config/parse-gateway-config';
import { readConfigFile } from '../config/read-config-file';
import { openGatewayStorage } from '../gateway/gateway-storage';
import { definitionDiff } from '../pins/definition-diff';
import { createFilePinStore } from '../pins/file-pin-store';
import { pinLocationOf } from '../pins/pin-location';
import { type PinRecord, type PinStore, PinStoreError } from '../pins/pin-store';
import { defaultCacheDir } from '../upstream/manifest-cache';

/** The `approve` command's synopsis, as the usage text shows it. */
export const APPROVE_USAGE =
  'tool-search-mcp approve --config FILE [--cache DIR] [NAME ... | --all] [--json]';

const HELP = `Usage: ${APPROVE_USAGE}

Lists the quarantined tools (whose definition changed since it was pinned, or new tools held by
"definitionPins": { "newTools": "quarantine" }), each with a diff of what changed. With names (as
listed: <server>__<tool>) or --all, pins their new definitions: a running gateway offers them again
within a second, without a restart.

Options:
  --config FILE   the gateway's config (required): its "definitionPins" and "storage" say where pins are
  --cache DIR     the gateway's --cache folder, when it was given one (pins are in DIR/pins.json)
  --all           approve every quarantined tool
  --json          print JSON: { location, quarantined: [...], approved: [...] }
  --help`;

/** A quarantined tool as `approve` shows it. */
interface Quarantined {
  name: string;
  server: string;
  tool: string;
  reason: 'changed' | 'new';
  pinned: PinRecord['pinned'] | null;
  held: NonNullable<PinRecord['held']>;
  diff: string[];
}

/**
 * `tool-search-mcp approve`: lists the quarantined tools with what changed, or approves them.
 * @param argv - the arguments after `approve`
 * @param io - where output goes and the environment (for the default cache folder)
 * @returns 0 when done, 1 when the pins or the config cannot be read or a name is not
 *   quarantined (nothing is approved then), 2 for bad arguments
 */
export async function runApprove(
  argv: readonly string[],
  io: { stdout: Writable; stderr: Writable; env: NodeJS.ProcessEnv },
): Promise<number> {
  const fail = (message: string, code: number) => {
    io.stderr.write(`tool-search-mcp approve: ${message}\n${code === 2 ? `\n${HELP}\n` : ''}`);
    return code;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  const { values, positionals: names } = parsed;
  if (values.help) {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (!values.config) return fail('--config FILE is required', 2);
  if (values.all && names.length > 0) return fail('give names or --all, not both', 2);
  let config: GatewayConfig;
  try {
    config = await readPinSettings(values.config);
  } catch (error) {
    if (!(error instanceof GatewayConfigError)) throw error;
    return fail(`invalid config: ${error.message}`, 1);
  }
  const location = pinLocationOf(config, values.cache ?? defaultCacheDir(io.env));
  if (location.kind === 'off') {
    if (names.length > 0 || values.all)
      return fail(
        `${values.config} turns pinning off ("definitionPins": false): nothing is quarantined`,
        1,
      );
    io.stdout.write(
      values.json
        ? `${JSON.stringify({ location: null, quarantined: [] })}\n`
        : 'Pinning is off in this config ("definitionPins": false): nothing is quarantined.\n',
    );
    return 0;
  }
  let store: PinStore;
  let close = async (): Promise<void> => undefined;
  if (location.kind === 'redis' && config.storage) {
    try {
      const storage = await openGatewayStorage(config.storage, { log: () => undefined });
      store = storage.pins;
      close = () => storage.close();
    } catch (error) {
      return fail((error as Error).message, 1);
    }
  } else {
    store = createFilePinStore(location.kind === 'file' ? location.file : '');
  }
  try {
    return await approve(store, {
      names,
      all: values.all === true,
      json: values.json === true,
      io,
      fail,
    });
  } catch (error) {
    if (error instanceof PinStoreError) return fail(error.message, 1);
    throw error;
  } finally {
    await close();
  }
}

async function approve(
  store: PinStore,
  options: {
    names: string[];
    all: boolean;
    json: boolean;
    io: { stdout: Writable };
    fail: (message: string, code: number) => number;
  },
): Promise<number> {
  const { names, all, json, io, fail } = options;
  const quarantined = quarantinedOf(await store.load());
  if (names.length === 0 && !all) {
    io.stdout.write(
      json
        ? `${JSON.stringify({ location: store.location, quarantined }, null, 2)}\n`
        : listing(quarantined, store.location),
    );
    return 0;
  }
  const byName = new Map(quarantined.map((entry) => [entry.name, entry]));
  const unknown = names.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    const shown = listed(unknown.map((name) => JSON.stringify(name.slice(0, MAX_ECHOED_NAME))));
    const known = listed(quarantined.map((entry) => entry.name)) || 'none';
    return fail(`not quarantined: ${shown} (quarantined now: ${known}); nothing was approved`, 1);
  }
  const chosen = all ? quarantined : [...new Set(names)].map((name) => byName.get(name)!);
  const applied = await store.update(
    chosen.map((entry) => ({
      type: 'approve' as const,
      server: entry.server,
      tool: entry.tool,
      hash: entry.held.hash,
    })),
  );
  const approved = chosen.filter((_, index) => applied[index]).map((entry) => entry.name);
  const moved = chosen.filter((_, index) => !applied[index]).map((entry) => entry.name);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ location: store.location, approved, changedMeanwhile: moved }, null, 2)}\n`,
    );
  } else {
    if (approved.length === 0 && moved.length === 0)
      io.stdout.write('No tool is quarantined: nothing to approve.\n');
    for (const name of approved)
      io.stdout.write(
        `Approved ${name}: its new definition is pinned. A running gateway offers it again within a second.\n`,
      );
    for (const name of moved)
      io.stdout.write(
        `Not approved ${name}: its definition changed again since it was read; run approve again to see the new one.\n`,
      );
  }
  return 0;
}

/** Characters of a name echoed in an error: the length every entry point echoes (SECURITY.md). */
const MAX_ECHOED_NAME = 120;
/** Names listed in an error line; the rest are counted. */
const MAX_LISTED = 10;

function listed(names: readonly string[]): string {
  const more = names.length - MAX_LISTED;
  return names.slice(0, MAX_LISTED).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function quarantinedOf(records: readonly PinRecord[]): Quarantined[] {
  return records
    .filter((record) => record.held)
    .map((record) => {
      const held = record.held!;
      return {
        name: held.exposedName,
        server: record.server,
        tool: record.tool,
        reason: held.reason,
        pinned: record.pinned ?? null,
        held,
        diff: definitionDiff(record.pinned?.definition, held.definition),
      };
    })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

function listing(quarantined: readonly Quarantined[], location: string): string {
  if (quarantined.length === 0) return `No tool is quarantined (pins: ${location}).\n`;
  const lines = [`${quarantined.length} quarantined tool(s) (pins: ${location}):`, ''];
  for (const entry of quarantined) {
    lines.push(`${entry.name}  (server "${entry.server}", tool "${entry.tool}")`);
    lines.push(
      entry.reason === 'changed'
        ? `  changed since it was pinned on ${entry.pinned?.at}; this definition seen ${entry.held.at}`
        : `  a new tool of a known server, held by "newTools": "quarantine"; seen ${entry.held.at}`,
    );
    for (const line of entry.diff) lines.push(`  ${line}`);
    lines.push('');
  }
  lines.push('Approve with the names above, or --all (add --json for a script).');
  return `${lines.join('\n')}\n`;
}

/**
 * The config's `definitionPins` and `storage` alone, checked as the gateway checks them: the
 * rest (servers, whose `${VARIABLES}` may be set only in the gateway's environment) is not read.
 */
async function readPinSettings(file: string): Promise<GatewayConfig> {
  const value = await readConfigFile(file);
  const root = (
    value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
  ) as Record<string, unknown>;
  const { config } = parseGatewayConfig(
    {
      mcpServers: {},
      ...(root.storage !== undefined && { storage: root.storage }),
      ...(root.definitionPins !== undefined && { definitionPins: root.definitionPins }),
    },
    { file, baseDir: dirname(resolve(file)) },
  );
  return config;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      cache: { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
}
