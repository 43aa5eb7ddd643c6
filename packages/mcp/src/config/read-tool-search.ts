import { childPath } from './config-error';
import type { ConfigFieldReader } from './config-field-reader';
import type { ExposeMode, ToolSearchConfig } from './gateway-config';

const TOOL_SEARCH_KEYS = new Set([
  'topK',
  'minScore',
  'autoLoad',
  'alwaysLoaded',
  'maxLoadedTools',
  'unloadTool',
  'expose',
  'enabled',
  'threshold',
  'definitions',
]);
const EXPOSE_MODES: readonly ExposeMode[] = ['tools', 'proxy'];

/** Reads the config's `toolSearch`: the engine's options and the gateway's mode. */
export function readToolSearch(
  reader: ConfigFieldReader,
  value: unknown,
  path: string,
): ToolSearchConfig {
  const entry = reader.object(value, path);
  reader.unknownKeys(entry, path, TOOL_SEARCH_KEYS);
  const config: ToolSearchConfig = {};
  if (entry.topK !== undefined)
    config.topK = reader.integer(entry.topK, childPath(path, 'topK'), 1);
  if (entry.minScore !== undefined) {
    if (typeof entry.minScore !== 'number' || !Number.isFinite(entry.minScore))
      reader.fail(childPath(path, 'minScore'), 'must be a number');
    config.minScore = entry.minScore;
  }
  if (entry.autoLoad !== undefined)
    config.autoLoad = reader.boolean(entry.autoLoad, childPath(path, 'autoLoad'));
  if (entry.unloadTool !== undefined)
    config.unloadTool = reader.boolean(entry.unloadTool, childPath(path, 'unloadTool'));
  if (entry.alwaysLoaded !== undefined)
    config.alwaysLoaded = reader.strings(entry.alwaysLoaded, childPath(path, 'alwaysLoaded'));
  if (entry.maxLoadedTools !== undefined)
    config.maxLoadedTools = reader.integer(
      entry.maxLoadedTools,
      childPath(path, 'maxLoadedTools'),
      1,
    );
  if (entry.expose !== undefined) {
    if (!EXPOSE_MODES.includes(entry.expose as ExposeMode))
      reader.fail(childPath(path, 'expose'), 'must be "tools" or "proxy"');
    config.expose = entry.expose as ExposeMode;
  }
  if (entry.enabled !== undefined) {
    if (entry.enabled !== true && entry.enabled !== false && entry.enabled !== 'auto')
      reader.fail(childPath(path, 'enabled'), 'must be true, false or "auto"');
    config.enabled = entry.enabled;
  }
  if (entry.threshold !== undefined)
    config.threshold = reader.integer(entry.threshold, childPath(path, 'threshold'), 0);
  if (entry.definitions !== undefined)
    config.definitions = reader.integer(entry.definitions, childPath(path, 'definitions'), 0);
  return config;
}
