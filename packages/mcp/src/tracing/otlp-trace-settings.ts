/** How spans are exported, read from the standard `OTEL_*` environment variables. */
export interface OtlpTraceSettings {
  /** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `OTEL_EXPORTER_OTLP_PROTOCOL`; gRPC is not offered. */
  protocol: 'http/json' | 'http/protobuf';
  /** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  url: string;
  /** `OTEL_EXPORTER_OTLP_HEADERS`, then `OTEL_EXPORTER_OTLP_TRACES_HEADERS` over them. */
  headers: Record<string, string>;
  /** `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` or `OTEL_EXPORTER_OTLP_TIMEOUT`, in ms. */
  timeoutMillis?: number;
  /** `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `tool-search-mcp`. */
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`. */
  resourceAttributes: Record<string, string>;
  /** `OTEL_BSP_*`: the batch span processor's delay, timeout and sizes. */
  batch: {
    scheduledDelayMillis?: number;
    exportTimeoutMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
  };
  /** `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` (default `parentbased_always_on`). */
  sampler: { name: SamplerName; ratio: number };
}

/** The samplers the OpenTelemetry SDK environment specification names, besides the Jaeger ones. */
export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

const SAMPLERS = new Set<string>([
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]);

/** The OTLP/HTTP default endpoint (the OpenTelemetry protocol exporter specification's). */
const DEFAULT_ENDPOINT = 'http://localhost:4318';
const BATCH_VARIABLES = {
  scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY',
  exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT',
  maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE',
  maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
} as const;

/**
 * Whether the environment turns traces on, and how they are exported. They are on when an OTLP
 * endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or
 * `OTEL_TRACES_EXPORTER` names `otlp` (the default endpoint then), unless `OTEL_SDK_DISABLED` is
 * `true` or `OTEL_TRACES_EXPORTER` is `none`.
 * @returns the settings; `undefined` when traces are off; or the problem with a variable
 */
export function otlpTraceSettingsFromEnv(
  env: NodeJS.ProcessEnv,
): OtlpTraceSettings | undefined | { problem: string } {
  const read = (name: string) => {
    const value = Object.hasOwn(env, name) ? env[name]?.trim() : undefined;
    return value === '' ? undefined : value;
  };
  if (read('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporters = read('OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim());
  if (exporters?.includes('none')) return undefined;
  if (exporters && !exporters.includes('otlp'))
    return {
      problem: `OTEL_TRACES_EXPORTER is "${exporters.join(',')}": the gateway exports "otlp" only`,
    };
  const specific = read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const general = read('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (specific === undefined && general === undefined && !exporters) return undefined;
  const url = specific ?? `${(general ?? DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  const variable =
    specific !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  let protocolOfUrl: string;
  try {
    protocolOfUrl = new URL(url).protocol;
  } catch {
    return { problem: `${variable} is not a URL` };
  }
  if (protocolOfUrl !== 'http:' && protocolOfUrl !== 'https:')
    return { problem: `${variable} must be an http: or https: URL` };
  const protocol =
    read('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
    read('OTEL_EXPORTER_OTLP_PROTOCOL') ??
    'http/protobuf';
  if (protocol !== 'http/json' && protocol !== 'http/protobuf')
    return {
      problem: `the OTLP protocol "${protocol}" is not offered: use http/protobuf or http/json`,
    };
  const headers = {
    ...keyValues(read('OTEL_EXPORTER_OTLP_HEADERS')),
    ...keyValues(read('OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
  };
  const resourceAttributes = keyValues(read('OTEL_RESOURCE_ATTRIBUTES'));
  const numbers: Record<string, number> = {};
  for (const name of [
    'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
    'OTEL_EXPORTER_OTLP_TIMEOUT',
    ...Object.values(BATCH_VARIABLES),
  ]) {
    const text = read(name);
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value <= 0)
      return { problem: `${name} must be a positive integer, got "${text}"` };
    numbers[name] = value;
  }
  const timeoutMillis =
    numbers.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? numbers.OTEL_EXPORTER_OTLP_TIMEOUT;
  const batch: OtlpTraceSettings['batch'] = {};
  for (const [key, name] of Object.entries(BATCH_VARIABLES))
    if (numbers[name] !== undefined) batch[key as keyof typeof BATCH_VARIABLES] = numbers[name];
  const samplerName = read('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  if (!SAMPLERS.has(samplerName))
    return { problem: `OTEL_TRACES_SAMPLER "${samplerName}" is not offered` };
  const ratioText = read('OTEL_TRACES_SAMPLER_ARG');
  const ratio = ratioText === undefined ? 1 : Number(ratioText);
  if (!(ratio >= 0 && ratio <= 1))
    return { problem: `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"` };
  return {
    protocol,
    url,
    headers,
    ...(timeoutMillis !== undefined && { timeoutMillis }),
    serviceName:
      read('OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'tool-search-mcp',
    resourceAttributes,
    batch,
    sampler: { name: samplerName as SamplerName, ratio },
  };
}

/** `key=value,key2=value2` with percent-encoded values (the W3C Baggage form the OTEL_* lists use). */
function keyValues(text: string | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const pair of text?.split(',') ?? []) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const key = pair.slice(0, equals).trim();
    let value = pair.slice(equals + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // A stray % is kept as written.
    }
    if (key)
      Object.defineProperty(record, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return record;
}
