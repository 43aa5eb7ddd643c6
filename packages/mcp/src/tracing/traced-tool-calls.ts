import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { CALL_TOOL_NAME } from 'tool-search-core';
import { echo } from '../gateway/gateway-text';
import { type ToolCallRequest, ToolCalls, type ToolCallsHost } from '../gateway/tool-calls';

/** How the gateway traces: a tracer, and whether spans may carry the model's and tools' text. */
export interface GatewayTracing {
  /** An OpenTelemetry tracer: `startGatewayTracing`'s, or yours (`trace.getTracer('gateway')`). */
  tracer: Tracer;
  /**
   * Put `search_tools` queries and tool-call arguments and results in spans.
   * @default false
   */
  recordContent?: boolean | undefined;
}

// The names below are the OpenTelemetry semantic conventions' (GenAI: `gen_ai.*`, the
// `execute_tool` operation; MCP: `mcp.method.name`; `error.type`), semantic-conventions 1.45.
// Their values are written out, not imported: `@opentelemetry/api` is loaded only by a tracer.
/** `SpanKind.INTERNAL`: the GenAI conventions' kind for `execute_tool` spans. */
const SPAN_KIND_INTERNAL = 0;
/** `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2;
/** Characters of recorded content (arguments, results, queries) kept per attribute. */
const MAX_RECORDED = 8_192;
/** Characters of an error message kept in a span's status. */
const MAX_STATUS_MESSAGE = 300;

/**
 * {@link ToolCalls} with a span per `tools/call`, named and attributed as the OpenTelemetry GenAI
 * conventions name a tool's execution: `execute_tool <tool>`, `gen_ai.operation.name`
 * `execute_tool`, `gen_ai.tool.name`, and the upstream server and tool it ran on. A `call_tool`
 * is named after the tool it runs (`tool_search.via: call_tool`); `search_tools` spans carry the
 * result count and names, `load_tool` spans the names loaded. A call that answers `isError`, or
 * throws, ends its span with status ERROR and an `error.type`.
 */
export class TracedToolCalls extends ToolCalls {
  readonly #tracing: GatewayTracing;
  readonly #host: ToolCallsHost;

  constructor(host: ToolCallsHost, tracing: GatewayTracing) {
    super(host);
    this.#host = host;
    this.#tracing = tracing;
  }

  override async call(request: ToolCallRequest): Promise<CallToolResult> {
    const proxied =
      request.name === CALL_TOOL_NAME &&
      request.expose === 'proxy' &&
      typeof request.args?.name === 'string';
    const name = proxied ? (request.args!.name as string) : request.name;
    const upstream = this.#host.upstreams.lookup(name);
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'mcp.method.name': 'tools/call',
      ...(proxied && { 'tool_search.via': CALL_TOOL_NAME }),
      ...(upstream && {
        'tool_search.upstream.server': upstream.server,
        'tool_search.upstream.tool': upstream.definition.name,
      }),
    };
    const content = this.#tracing.recordContent === true;
    const args = proxied ? request.args?.arguments : request.args;
    if (content && args !== undefined) attributes['gen_ai.tool.call.arguments'] = recorded(args);
    if (content && name === 'search_tools' && typeof request.args?.query === 'string')
      attributes['tool_search.query'] = recorded(request.args.query);
    const span = this.#tracing.tracer.startSpan(`execute_tool ${echo(name)}`, {
      kind: SPAN_KIND_INTERNAL,
      attributes,
    });
    try {
      const result = await super.call(request);
      describeResult(span, name, result, content);
      return result;
    } catch (error) {
      const type = error instanceof ProtocolError ? String(error.code) : errorName(error);
      span.setAttribute('error.type', type);
      span.setStatus({ code: STATUS_ERROR, message: cut(errorMessage(error), MAX_STATUS_MESSAGE) });
      throw error;
    } finally {
      span.end();
    }
  }
}

function describeResult(span: Span, name: string, result: CallToolResult, content: boolean): void {
  const output = result.structuredContent as Record<string, unknown> | undefined;
  if (name === 'search_tools' && Array.isArray(output?.results)) {
    const names = output.results.flatMap((hit) =>
      typeof (hit as { name?: unknown }).name === 'string' ? [(hit as { name: string }).name] : [],
    );
    span.setAttribute('tool_search.result_count', names.length);
    span.setAttribute('tool_search.results', names);
    if (Array.isArray(output.notSearchable))
      span.setAttribute('tool_search.not_searchable', output.notSearchable.map(String));
  }
  if (name === 'load_tool' && output) {
    for (const [key, attribute] of [
      ['loaded', 'tool_search.loaded'],
      ['notFound', 'tool_search.not_found'],
    ] as const) {
      const names = output[key];
      if (Array.isArray(names)) span.setAttribute(attribute, names.map(String));
    }
  }
  if (content) span.setAttribute('gen_ai.tool.call.result', recorded(output ?? result.content));
  if (result.isError) {
    span.setAttribute('error.type', 'tool_error');
    const first = result.content[0];
    span.setStatus({
      code: STATUS_ERROR,
      message: cut(
        first?.type === 'text' ? first.text : 'the tool answered an error',
        MAX_STATUS_MESSAGE,
      ),
    });
  }
}

function recorded(value: unknown): string {
  const text = typeof value === 'string' ? value : (safeJson(value) ?? String(value));
  return cut(text, MAX_RECORDED);
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
