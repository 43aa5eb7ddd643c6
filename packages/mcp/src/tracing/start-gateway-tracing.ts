import type { Tracer } from '@opentelemetry/api';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import { oneLine } from '../gateway/gateway-text';
import { type OtlpTraceSettings, otlpTraceSettingsFromEnv } from './otlp-trace-settings';
import type { GatewayTracing } from './traced-tool-calls';

/** Options of {@link startGatewayTracing}. */
export interface StartGatewayTracingOptions {
  /**
   * Where the `OTEL_*` variables are read.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** The config's `tracing.recordContent`. */
  recordContent?: boolean | undefined;
  /** `service.version` of the spans' resource (unless `OTEL_RESOURCE_ATTRIBUTES` sets it). */
  serviceVersion?: string;
  /**
   * Receives log lines (where spans go, failed exports).
   * @default writes to stderr
   */
  log?: (message: string) => void;
  /** Loads a module by name; tests replace it to check what is loaded. */
  importModule?: (name: string) => Promise<unknown>;
}

/** Traces being exported: hand it to the gateway as `tracing`, and `shutdown()` after it stops. */
export interface StartedGatewayTracing extends GatewayTracing {
  /** How spans are exported. */
  settings: OtlpTraceSettings;
  /** Exports the spans still queued, then stops. */
  shutdown(): Promise<void>;
}

/** The name the gateway's tracer (its instrumentation scope) goes by. */
const TRACER_NAME = 'tool-search-mcp';
/** How long `shutdown()` waits for the last export: a collector that is down must not hold up the exit. */
const SHUTDOWN_TIMEOUT = 5_000;

/**
 * Starts exporting OpenTelemetry traces over OTLP/HTTP (protobuf or JSON) when the standard
 * `OTEL_*` variables ask for it (an endpoint, `OTEL_EXPORTER_OTLP_PROTOCOL`, headers, service
 * name, resource attributes, batch and sampler settings; `OTEL_SDK_DISABLED=true` turns it off).
 * The SDK is imported only then: without those variables nothing of OpenTelemetry is loaded and
 * nothing is sent. The tracer is the gateway's own: nothing global is registered, so an
 * application that embeds the gateway keeps its own OpenTelemetry setup.
 * @returns the tracing to give the gateway, or `undefined` when traces are off or a variable is
 *   wrong (which is logged: the gateway runs without traces rather than not at all)
 * @example
 * const tracing = await startGatewayTracing({ recordContent: config.tracing?.recordContent });
 * const gateway = createGatewayFromConfig(config, { ...(tracing && { tracing }) });
 */
export async function startGatewayTracing(
  options: StartGatewayTracingOptions = {},
): Promise<StartedGatewayTracing | undefined> {
  const log =
    options.log ?? ((message: string) => process.stderr.write(`[tool-search-mcp] ${message}\n`));
  const settings = otlpTraceSettingsFromEnv(options.env ?? process.env);
  if (settings === undefined) return undefined;
  if ('problem' in settings) {
    log(`tracing: off: ${settings.problem}`);
    return undefined;
  }
  const load = options.importModule ?? ((name: string) => import(name));
  const exporterPackage =
    settings.protocol === 'http/json'
      ? '@opentelemetry/exporter-trace-otlp-http'
      : '@opentelemetry/exporter-trace-otlp-proto';
  let sdk: typeof import('@opentelemetry/sdk-trace');
  let resources: typeof import('@opentelemetry/resources');
  let exporters: typeof import('@opentelemetry/exporter-trace-otlp-proto');
  try {
    [sdk, resources, exporters] = (await Promise.all([
      load('@opentelemetry/sdk-trace'),
      load('@opentelemetry/resources'),
      load(exporterPackage),
    ])) as [typeof sdk, typeof resources, typeof exporters];
  } catch (error) {
    log(`tracing: off: the OpenTelemetry packages could not be loaded (${oneLine(error)})`);
    return undefined;
  }
  const exporter = reportingFailures(
    new exporters.OTLPTraceExporter({
      url: settings.url,
      headers: settings.headers,
      ...(settings.timeoutMillis !== undefined && { timeoutMillis: settings.timeoutMillis }),
    }),
    log,
  );
  const provider = new sdk.TracerProvider({
    resource: resources.defaultResource().merge(
      resources.resourceFromAttributes({
        ...(options.serviceVersion !== undefined && { 'service.version': options.serviceVersion }),
        ...settings.resourceAttributes,
        'service.name': settings.serviceName,
      }),
    ),
    sampler: samplerOf(sdk, settings.sampler),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  const tracer: Tracer = provider.getTracer(TRACER_NAME, options.serviceVersion);
  log(`tracing: spans go to ${withoutCredentials(settings.url)} (OTLP ${settings.protocol})`);
  return {
    tracer,
    recordContent: options.recordContent === true,
    settings,
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_TIMEOUT);
      });
      await Promise.race([provider.shutdown().catch(() => undefined), timedOut]);
      clearTimeout(timer);
    },
  };
}

function samplerOf(
  sdk: typeof import('@opentelemetry/sdk-trace'),
  sampler: OtlpTraceSettings['sampler'],
): Sampler {
  const root = sampler.name.endsWith('always_off')
    ? new sdk.AlwaysOffSampler()
    : sampler.name.endsWith('traceidratio')
      ? new sdk.TraceIdRatioBasedSampler(sampler.ratio)
      : new sdk.AlwaysOnSampler();
  return sampler.name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
}

/**
 * The exporter, with each distinct failure logged once: the SDK reports failures only to its
 * diagnostic logger, which is silent unless set globally (and a gateway must not set globals).
 */
function reportingFailures(exporter: SpanExporter, log: (message: string) => void): SpanExporter {
  let last: string | undefined;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0.
        if (result.code !== 0) {
          const problem = oneLine(result.error ?? 'failed');
          if (problem !== last) log(`tracing: ${spans.length} span(s) not exported: ${problem}`);
          last = problem;
        } else {
          last = undefined;
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush && { forceFlush: () => exporter.forceFlush!() }),
  };
}

function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
