import { describe, expect, it } from 'vitest';
import { otlpTraceSettingsFromEnv } from './otlp-trace-settings';

describe('otlpTraceSettingsFromEnv', () => {
  it('is off without an endpoint or an otlp exporter, and when the SDK is disabled', () => {
    expect(otlpTraceSettingsFromEnv({})).toBeUndefined();
    expect(
      otlpTraceSettingsFromEnv({
        OTEL_SERVICE_NAME: 'x',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
    ).toBeUndefined();
    expect(
      otlpTraceSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SDK_DISABLED: 'TRUE',
      }),
    ).toBeUndefined();
    expect(otlpTraceSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeUndefined();
  });

  it('appends /v1/traces to the general endpoint, and takes the traces endpoint as it is', () => {
    expect(
      otlpTraceSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c.example/otlp/' }),
    ).toMatchObject({
      url: 'https://c.example/otlp/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'tool-search-mcp',
      sampler: { name: 'parentbased_always_on', ratio: 1 },
    });
    expect(
      otlpTraceSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom',
      }),
    ).toMatchObject({ url: 'http://c:4318/custom' });
    expect(otlpTraceSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({
      url: 'http://localhost:4318/v1/traces',
    });
  });

  it('reads headers, resource attributes, the service name, timeouts, batch and sampler settings', () => {
    const settings = otlpTraceSettingsFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team=search',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=tools',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment=prod',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_MAX_QUEUE_SIZE: '64',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(settings).toEqual({
      protocol: 'http/json',
      url: 'http://c:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'tools' },
      timeoutMillis: 2500,
      serviceName: 'from-attributes',
      resourceAttributes: { 'service.name': 'from-attributes', 'deployment.environment': 'prod' },
      batch: { scheduledDelayMillis: 200, maxQueueSize: 64 },
      sampler: { name: 'traceidratio', ratio: 0.25 },
    });
    expect(
      otlpTraceSettingsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_SERVICE_NAME: 'named',
      }),
    ).toMatchObject({
      serviceName: 'named',
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, 'OTEL_EXPORTER_OTLP_ENDPOINT is not a URL'],
    [
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://c/x' },
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http: or https: URL',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'the OTLP protocol "grpc" is not offered',
    ],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER is "zipkin"'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_BSP_SCHEDULE_DELAY: '-1' },
      'OTEL_BSP_SCHEDULE_DELAY must be a positive integer',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_SAMPLER: 'jaeger_remote' },
      'OTEL_TRACES_SAMPLER "jaeger_remote" is not offered',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_SAMPLER_ARG: '2' },
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1',
    ],
  ])('names the wrong variable: %j', (env, problem) => {
    const result = otlpTraceSettingsFromEnv(env);
    expect(result).toHaveProperty('problem');
    expect((result as { problem: string }).problem).toContain(problem);
  });
});
