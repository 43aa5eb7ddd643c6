import type { ToolRun, ToolSearchEvents } from './types';

/** A value a span attribute may hold (OpenTelemetry's `AttributeValue`, the kinds used here). */
export type SpanAttributeValue = string | number | boolean | string[];

/**
 * The part of an OpenTelemetry span the helper uses; `@opentelemetry/api`'s `Span` satisfies it.
 * Structural, so the core needs no OpenTelemetry package.
 */
export interface TraceSpan {
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/**
 * The part of an OpenTelemetry tracer the helper uses: `trace.getTracer(name)` of
 * `@opentelemetry/api` satisfies it. Spans start in the tracer's active context, so with a
 * context manager they are children of the span around your agent's step.
 */
export interface SpanTracer {
  startSpan(name: string, options?: { attributes?: Record<string, SpanAttributeValue> }): TraceSpan;
}

/** Options of {@link createToolSearchSpans}. */
export interface ToolSearchSpansOptions {
  /**
   * Put the model's text in spans: the search query (`tool_search.query`), the words of it that
   * matched nothing, and `call_tool`'s arguments (`gen_ai.tool.call.arguments`). A user may have
   * typed anything there.
   * @default false
   */
  recordContent?: boolean;
}

/** Engine events that become spans, and a wrapper that turns each `call_tool` run into one. */
export interface ToolSearchSpans
  extends Required<Pick<ToolSearchEvents, 'onSearch' | 'onLoad' | 'onDenied' | 'onEvict'>> {
  /**
   * Wraps the engine's `runTool`: each run is an `execute_tool <id>` span that lasts as long as
   * the tool runs, with status ERROR and `error.type` when it throws.
   * @typeParam TTool - your tool type
   * @typeParam TContext - your request context
   */
  traceRunTool<TTool, TContext>(
    runTool: (run: ToolRun<TTool, TContext>) => unknown,
  ): (run: ToolRun<TTool, TContext>) => Promise<unknown>;
}

/** `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const STATUS_ERROR = 2;
/** Characters of recorded content kept per attribute. */
const MAX_RECORDED = 8_192;

/**
 * OpenTelemetry spans from the engine's events, named by the GenAI semantic conventions
 * (`execute_tool <tool>`, `gen_ai.operation.name`, `gen_ai.tool.name`): `search_tools` with the
 * result count and names, `load_tool` with the names loaded, a span per denial and per eviction,
 * and through `traceRunTool` one per `call_tool` run. Search, load, denial and eviction spans are
 * marks (the events fire when the work is done, so they have no duration of their own). Spread
 * the result into the engine's options; the tracer is yours, so spans go wherever your
 * OpenTelemetry setup sends them.
 * @param tracer - an OpenTelemetry tracer (`trace.getTracer('my-agent')`)
 * @param options - whether spans may carry the model's text
 * @example
 * const spans = createToolSearchSpans(trace.getTracer('my-agent'));
 * const engine = createToolSearchEngine({ tools, describe, ...spans, expose: 'proxy', runTool: spans.traceRunTool(runTool) });
 */
export function createToolSearchSpans(
  tracer: SpanTracer,
  options: ToolSearchSpansOptions = {},
): ToolSearchSpans {
  const content = options.recordContent === true;
  const mark = (name: string, attributes: Record<string, SpanAttributeValue>) =>
    tracer.startSpan(name, { attributes }).end();
  const executeTool = (tool: string) => ({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
  });
  return {
    onSearch: ({ query, results, unmatchedTerms }) =>
      mark('execute_tool search_tools', {
        ...executeTool('search_tools'),
        'tool_search.result_count': results.length,
        'tool_search.results': results.map((result) => result.name),
        ...(content && {
          'tool_search.query': cut(query),
          'tool_search.unmatched_terms': unmatchedTerms,
        }),
      }),
    // Loaded by load_tool, by search_tools under autoLoad, or before the first step (no tool ran).
    onLoad: ({ toolNames, via }) =>
      via === 'preselect'
        ? mark('tool_search.preselect', { 'tool_search.loaded': toolNames })
        : mark(`execute_tool ${via}`, { ...executeTool(via), 'tool_search.loaded': toolNames }),
    onDenied: ({ toolName, phase, reason }) =>
      mark('tool_search.deny', {
        'gen_ai.tool.name': toolName,
        'tool_search.phase': phase,
        'tool_search.reason': reason,
      }),
    onEvict: ({ toolNames, reason }) =>
      mark('tool_search.evict', { 'tool_search.evicted': toolNames, 'tool_search.reason': reason }),
    traceRunTool: (runTool) => async (run) => {
      const span = tracer.startSpan(`execute_tool ${run.id}`, {
        attributes: {
          ...executeTool(run.id),
          'tool_search.via': 'call_tool',
          ...(content && { 'gen_ai.tool.call.arguments': cut(json(run.arguments)) }),
        },
      });
      try {
        return await runTool(run);
      } catch (error) {
        span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
        span.setStatus({
          code: STATUS_ERROR,
          message: cut(error instanceof Error ? error.message : String(error)),
        });
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string): string {
  return text.length > MAX_RECORDED ? `${text.slice(0, MAX_RECORDED)}…` : text;
}
