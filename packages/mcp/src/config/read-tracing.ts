import { childPath } from './config-error';
import type { ConfigFieldReader } from './config-field-reader';
import type { TracingConfig } from './gateway-config';

const TRACING_KEYS = new Set(['recordContent']);

/** Reads the config's `tracing`: `{ recordContent? }`. */
export function readTracing(reader: ConfigFieldReader, value: unknown): TracingConfig {
  const path = '$.tracing';
  const entry = reader.object(value, path);
  reader.unknownKeys(entry, path, TRACING_KEYS);
  const tracing: TracingConfig = {};
  if (entry.recordContent !== undefined)
    tracing.recordContent = reader.boolean(entry.recordContent, childPath(path, 'recordContent'));
  return tracing;
}
