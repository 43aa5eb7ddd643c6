import { resolve } from 'node:path';
import type { GatewayConfig } from '../config/gateway-config';

/** The pin file's name in the cache folder. */
export const PIN_FILE_NAME = 'pins.json';

/** Where a config's pins are kept. */
export type PinLocation =
  /** `definitionPins: false`: nothing is pinned. */
  | { kind: 'off' }
  /** `definitionPins.file`, or `pins.json` in the cache folder. */
  | { kind: 'file'; file: string; inCacheFolder: boolean }
  /** With `storage`: in Redis, beside the loaded tools. */
  | { kind: 'redis' }
  /** No cache folder (`--no-cache`): in the gateway's memory. */
  | { kind: 'memory' };

/**
 * Where a config keeps its pins: `definitionPins.file` when it names one, else Redis when it has
 * `storage`, else `pins.json` in the cache folder, else (no cache folder) memory.
 * @param config - the gateway's config
 * @param cacheDir - the cache folder, or `false` for none
 */
export function pinLocationOf(config: GatewayConfig, cacheDir: string | false): PinLocation {
  const pins = config.definitionPins;
  if (pins === false) return { kind: 'off' };
  if (pins?.file !== undefined) return { kind: 'file', file: pins.file, inCacheFolder: false };
  if (config.storage) return { kind: 'redis' };
  if (cacheDir === false) return { kind: 'memory' };
  return { kind: 'file', file: resolve(cacheDir, PIN_FILE_NAME), inCacheFolder: true };
}

/** Characters that make a shell word need quotes. */
const SHELL_SPECIAL = /[^A-Za-z0-9_./:@%+=,-]/;

/**
 * The `approve` command for names, as the log prints it: the config by its absolute path, and
 * `--cache` when the pins are in a cache folder other than the default.
 */
export function approveCommandOf(options: {
  configFile: string | undefined;
  cacheDir: string | undefined;
}): (names: readonly string[]) => string {
  const words = [
    'tool-search-mcp',
    'approve',
    '--config',
    options.configFile ?? '<your config file>',
  ];
  if (options.cacheDir !== undefined) words.push('--cache', options.cacheDir);
  return (names) =>
    [...words, ...names]
      .map((word) =>
        word === '<your config file>' || !SHELL_SPECIAL.test(word)
          ? word
          : `'${word.replaceAll("'", `'\\''`)}'`,
      )
      .join(' ');
}
