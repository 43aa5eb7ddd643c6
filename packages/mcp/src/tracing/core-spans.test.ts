/**
 * The core's `createToolSearchSpans` with the real OpenTelemetry SDK: its structural tracer type
 * takes `@opentelemetry/api`'s, and the spans it makes are exported as the SDK exports any span.
 */
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { createToolSearchEngine, createToolSearchSpans } from 'tool-search-core';
import { describe, expect, it } from 'vitest';

describe('createToolSearchSpans (tool-search-core) with the OpenTelemetry SDK', () => {
  it('exports an execute_tool span per search and per call_tool run', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const spans = createToolSearchSpans(provider.getTracer('agent'));
    const engine = createToolSearchEngine({
      tools: { get_weather: { description: 'Current weather for a city' } },
      describe: (tool, key) => ({ id: key, description: tool.description }),
      ...spans,
      expose: 'proxy',
      runTool: spans.traceRunTool(async () => ({ sky: 'clear' })),
    });
    const session = engine.createSession({ threadId: 't' });
    const run = (name: string, input: unknown) =>
      session.metaTools.find((tool) => tool.name === name)!.execute(input);
    await run('search_tools', { query: 'weather' });
    await run('load_tool', { toolName: 'get_weather' });
    await run('call_tool', { name: 'get_weather', arguments: {} });
    await provider.forceFlush();
    const finished = exporter.getFinishedSpans();
    expect(finished.map((span) => span.name)).toEqual([
      'execute_tool search_tools',
      'execute_tool load_tool',
      'execute_tool get_weather',
    ]);
    expect(finished[2]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
    });
    await provider.shutdown();
  });
});
