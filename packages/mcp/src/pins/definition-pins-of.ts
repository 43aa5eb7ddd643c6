import { resolve } from 'node:path';
import type { GatewayConfig } from '../config/gateway-config';
import { defaultCacheDir } from '../upstream/manifest-cache';
import type { DefinitionPinsOptions } from './definition-pins';
import { createFilePinStore } from './file-pin-store';
import { approveCommandOf, PIN_FILE_NAME, pinLocationOf } from './pin-location';
import { createMemoryPinStore, type PinStore } from './pin-store';

/**
 * The upstream manager's `definitionPins` for a config: its store (the one given, else where
 * the config says), its `newTools` policy, and the `approve` command the log prints.
 * @returns `undefined` when nothing is pinned (`definitionPins: false`, or `pins: false`)
 */
export function definitionPinsOf(
  config: GatewayConfig,
  options: {
    pins: PinStore | false | undefined;
    cacheDir: string | false;
    file: string | undefined;
    env: NodeJS.ProcessEnv | undefined;
    log: ((message: string) => void) | undefined;
  },
): DefinitionPinsOptions | undefined {
  const location = pinLocationOf(config, options.cacheDir);
  let store = options.pins;
  if (store === undefined) {
    if (location.kind === 'off') return undefined;
    if (location.kind === 'redis') {
      const log = options.log ?? ((line) => process.stderr.write(`[tool-search-mcp] ${line}\n`));
      log(
        `pins: the config has "storage", but no shared pin store was given (openGatewayStorage's pins), so this instance pins on its own`,
      );
    }
    store =
      location.kind === 'file'
        ? createFilePinStore(location.file)
        : options.cacheDir === false
          ? createMemoryPinStore()
          : createFilePinStore(resolve(options.cacheDir, PIN_FILE_NAME));
  }
  if (store === false) return undefined;
  const newTools = config.definitionPins ? config.definitionPins.newTools : undefined;
  // The default cache folder needs no --cache; any other place the pins are found by does.
  const inOtherCacheFolder =
    options.cacheDir !== false &&
    store.location === resolve(options.cacheDir, PIN_FILE_NAME) &&
    resolve(options.cacheDir) !== resolve(defaultCacheDir(options.env));
  return {
    store,
    ...(newTools !== undefined && { newTools }),
    // Pins kept in memory cannot be approved from outside: the log says to restart instead.
    ...(!store.location.startsWith('memory') && {
      approveCommand: approveCommandOf({
        configFile: options.file === undefined ? undefined : resolve(options.file),
        cacheDir: inOtherCacheFolder ? (options.cacheDir as string) : undefined,
      }),
    }),
  };
}
