import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the receiver decoded it, from OTLP/JSON or OTLP/protobuf alike. */
export interface ReceivedSpan {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  /** The attributes of the resource the span came with (`service.name`...). */
  resource: Record<string, unknown>;
  /** The content type of the request it came in. */
  contentType: string;
}

/** A local OTLP/HTTP trace receiver: `POST /v1/traces` in JSON or protobuf, every span kept. */
export interface OtlpReceiver {
  /** The endpoint to give as `OTEL_EXPORTER_OTLP_ENDPOINT` (the base: `/v1/traces` is appended). */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Resolves with the first span the predicate accepts, or rejects after `timeout` ms. */
  waitForSpan(predicate: (span: ReceivedSpan) => boolean, timeout?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const contentType = String(request.headers['content-type'] ?? '');
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    try {
      spans.push(
        ...(contentType.includes('json')
          ? spansOfJson(JSON.parse(body.toString('utf8')), contentType)
          : spansOfProtobuf(body, contentType)),
      );
    } catch (error) {
      response.writeHead(400).end(String(error));
      return;
    }
    // An empty ExportTraceServiceResponse: `{}` in JSON, no bytes in protobuf.
    response
      .writeHead(200, { 'content-type': contentType })
      .end(contentType.includes('json') ? '{}' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    async waitForSpan(predicate, timeout = 20_000) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const span = spans.find(predicate);
        if (span) return span;
        if (Date.now() > deadline)
          throw new Error(
            `no such span within ${timeout} ms; received: ${spans.map((each) => each.name).join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

type JsonValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonValue[] };
};
type JsonKeyValue = { key: string; value: JsonValue };

function spansOfJson(request: unknown, contentType: string): ReceivedSpan[] {
  const jsonValue = (value: JsonValue): unknown => {
    if (value.stringValue !== undefined) return value.stringValue;
    if (value.boolValue !== undefined) return value.boolValue;
    if (value.intValue !== undefined) return Number(value.intValue);
    if (value.doubleValue !== undefined) return value.doubleValue;
    if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
    return undefined;
  };
  const record = (list: JsonKeyValue[] = []) =>
    Object.fromEntries(list.map((item) => [item.key, jsonValue(item.value)]));
  const resourceSpans = (request as { resourceSpans?: unknown[] }).resourceSpans ?? [];
  return resourceSpans.flatMap((entry) => {
    const { resource, scopeSpans = [] } = entry as {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans?: { spans?: unknown[] }[];
    };
    return scopeSpans.flatMap((scope) =>
      (scope.spans ?? []).map((item) => {
        const span = item as {
          name: string;
          kind?: number;
          attributes?: JsonKeyValue[];
          status?: { code?: number; message?: string };
        };
        return {
          name: span.name,
          kind: span.kind ?? 0,
          attributes: record(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
          resource: record(resource?.attributes),
          contentType,
        };
      }),
    );
  });
}

/** Protobuf fields of a message: number, wire type and value (a varint, or the bytes of the rest). */
function* fields(
  bytes: Uint8Array,
): Generator<{ field: number; wire: number; varint: bigint; data: Uint8Array }> {
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[offset++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  while (offset < bytes.length) {
    const tag = Number(varint());
    const field = tag >> 3;
    const wire = tag & 7;
    if (wire === 0) yield { field, wire, varint: varint(), data: new Uint8Array() };
    else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      yield { field, wire, varint: 0n, data: bytes.subarray(offset, offset + size) };
      offset += size;
    } else if (wire === 2) {
      const length = Number(varint());
      yield { field, wire, varint: 0n, data: bytes.subarray(offset, offset + length) };
      offset += length;
    } else throw new Error(`wire type ${wire} is not used by OTLP`);
  }
}

const text = (data: Uint8Array) => Buffer.from(data).toString('utf8');

/** opentelemetry.proto.common.v1.AnyValue: string 1, bool 2, int 3, double 4, array 5. */
function anyValue(bytes: Uint8Array): unknown {
  for (const { field, varint, data } of fields(bytes)) {
    if (field === 1) return text(data);
    if (field === 2) return varint !== 0n;
    if (field === 3) return Number(BigInt.asIntN(64, varint));
    if (field === 4) return Buffer.from(data).readDoubleLE(0);
    if (field === 5)
      return [...fields(data)]
        .filter((item) => item.field === 1)
        .map((item) => anyValue(item.data));
  }
  return undefined;
}

/** KeyValue: key 1, value 2. */
function keyValues(list: Uint8Array[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const bytes of list) {
    let key = '';
    let value: unknown;
    for (const { field, data } of fields(bytes)) {
      if (field === 1) key = text(data);
      if (field === 2) value = anyValue(data);
    }
    record[key] = value;
  }
  return record;
}

/**
 * ExportTraceServiceRequest: resource_spans 1 → resource 1 (attributes 1), scope_spans 2 → spans
 * 2 → name 5, kind 6, attributes 9, status 15 (message 2, code 3). The fields the tests read.
 */
function spansOfProtobuf(body: Uint8Array, contentType: string): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fields(body)) {
    if (resourceSpans.field !== 1) continue;
    let resource: Record<string, unknown> = {};
    const scopes: Uint8Array[] = [];
    for (const { field, data } of fields(resourceSpans.data)) {
      if (field === 1)
        resource = keyValues(
          [...fields(data)].filter((item) => item.field === 1).map((item) => item.data),
        );
      if (field === 2) scopes.push(data);
    }
    for (const scope of scopes) {
      for (const { field, data } of fields(scope)) {
        if (field !== 2) continue;
        const span: ReceivedSpan = {
          name: '',
          kind: 0,
          attributes: {},
          status: { code: 0, message: '' },
          resource,
          contentType,
        };
        const attributes: Uint8Array[] = [];
        for (const item of fields(data)) {
          if (item.field === 5) span.name = text(item.data);
          if (item.field === 6) span.kind = Number(item.varint);
          if (item.field === 9) attributes.push(item.data);
          if (item.field === 15) {
            for (const status of fields(item.data)) {
              if (status.field === 2) span.status.message = text(status.data);
              if (status.field === 3) span.status.code = Number(status.varint);
            }
          }
        }
        span.attributes = keyValues(attributes);
        spans.push(span);
      }
    }
  }
  return spans;
}
