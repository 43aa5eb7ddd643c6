import { describe, expect, it } from 'vitest';
import { createToolSearchEngine } from './tool-search-engine';
import { createToolSearchSpans, type SpanTracer } from './tool-search-spans';

/** A tracer that keeps each span's name, attributes, status and whether it ended. */
function recordingTracer() {
  const spans: {
    name: string;
    attributes: Record<string, unknown>;
    status?: { code: number };
    ended: boolean;
  }[] = [];
  const tracer: SpanTracer = {
    startSpan(name, options) {
      const span = {
        name,
        attributes: { ...options?.attributes } as Record<string, unknown>,
        ended: false,
      } as (typeof spans)[number];
      spans.push(span);
      return {
        setAttribute: (key, value) => {
          span.attributes[key] = value;
        },
        setStatus: (status) => {
          span.status = status;
        },
        end: () => {
          span.ended = true;
        },
      };
    },
  };
  return { tracer, spans };
}

const tools = {
  get_weather: { description: 'Current weather for a city' },
  send_email: { description: 'Send an email to a recipient' },
};

describe('createToolSearchSpans', () => {
  it('turns searches, loads, denials and call_tool runs into spans named by the GenAI conventions', async () => {
    const { tracer, spans } = recordingTracer();
    const traced = createToolSearchSpans(tracer);
    const engine = createToolSearchEngine({
      tools,
      describe: (tool, key) => ({ id: key, description: tool.description }),
      ...traced,
      filter: ({ toolName, phase }) => phase === 'search' || toolName !== 'send_email',
      expose: 'proxy',
      runTool: traced.traceRunTool(async ({ id, arguments: args }) => {
        if (args.fail) throw new TypeError('the weather service is down');
        return `${id} ran`;
      }),
    });
    const session = engine.createSession({ threadId: 't' });
    const run = (name: string, input: unknown) =>
      session.metaTools.find((tool) => tool.name === name)!.execute(input);
    await run('search_tools', { query: 'weather in Paris' });
    await run('load_tool', { toolNames: ['get_weather', 'send_email'] });
    expect(await run('call_tool', { name: 'get_weather', arguments: { city: 'Paris' } })).toBe(
      'get_weather ran',
    );
    await expect(
      run('call_tool', { name: 'get_weather', arguments: { fail: true } }),
    ).rejects.toThrow('down');

    expect(spans.every((span) => span.ended)).toBe(true);
    expect(spans.find((span) => span.name === 'execute_tool search_tools')?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_tools',
      'tool_search.result_count': 1,
      'tool_search.results': ['get_weather'],
    });
    expect(
      spans.find((span) => span.name === 'execute_tool load_tool')?.attributes[
        'tool_search.loaded'
      ],
    ).toEqual(['get_weather']);
    expect(spans.find((span) => span.name === 'tool_search.deny')?.attributes).toMatchObject({
      'gen_ai.tool.name': 'send_email',
      'tool_search.phase': 'load',
    });
    const calls = spans.filter((span) => span.name === 'execute_tool get_weather');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'tool_search.via': 'call_tool',
    });
    expect(calls[1]).toMatchObject({
      status: { code: 2 },
      attributes: { 'error.type': 'TypeError' },
    });
  });

  it('records the query and arguments only with recordContent', async () => {
    const { tracer, spans } = recordingTracer();
    const traced = createToolSearchSpans(tracer, { recordContent: true });
    traced.onSearch({
      threadId: 't',
      query: 'weather zzyzx',
      results: [],
      unmatchedTerms: ['zzyzx'],
    });
    await traced.traceRunTool(async () => 'ok')({
      id: 'get_weather',
      key: 'get_weather',
      tool: tools.get_weather,
      arguments: { city: 'Paris' },
      requestContext: undefined,
      threadId: 't',
      callOptions: undefined,
    });
    expect(spans[0]?.attributes).toMatchObject({
      'tool_search.query': 'weather zzyzx',
      'tool_search.unmatched_terms': ['zzyzx'],
    });
    expect(spans[1]?.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Paris"}');
  });
});
