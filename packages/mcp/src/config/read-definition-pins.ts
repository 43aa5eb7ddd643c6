import { isAbsolute, resolve } from 'node:path';
import { childPath } from './config-error';
import type { ConfigFieldReader } from './config-field-reader';
import type { DefinitionPinsConfig } from './gateway-config';

const DEFINITION_PINS_KEYS = new Set(['file', 'newTools']);
const NEW_TOOL_POLICIES = new Set(['trust', 'quarantine']);

/**
 * Reads the config's `definitionPins`: `false`, or `{ file?, newTools? }`. A relative `file` is
 * resolved against the config file's folder, as `cwd` is.
 */
export function readDefinitionPins(
  reader: ConfigFieldReader,
  value: unknown,
  baseDir: string | undefined,
): DefinitionPinsConfig | false {
  const path = '$.definitionPins';
  if (value === false) return false;
  if (value === true) return {};
  const entry = reader.object(value, path);
  reader.unknownKeys(entry, path, DEFINITION_PINS_KEYS);
  const pins: DefinitionPinsConfig = {};
  if (entry.file !== undefined) {
    const file = reader.nonEmptyString(entry.file, childPath(path, 'file'));
    pins.file = baseDir !== undefined && !isAbsolute(file) ? resolve(baseDir, file) : file;
  }
  if (entry.newTools !== undefined) {
    if (typeof entry.newTools !== 'string' || !NEW_TOOL_POLICIES.has(entry.newTools))
      reader.fail(childPath(path, 'newTools'), 'must be "trust" or "quarantine"');
    pins.newTools = entry.newTools as 'trust' | 'quarantine';
  }
  return pins;
}
