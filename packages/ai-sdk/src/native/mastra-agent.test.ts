// Mastra's agents take AI SDK tools and pass a tool's `providerOptions` and its `toModelOutput`
// content parts on to AI SDK v4 provider models: the native tools of this package run there too.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import { createRecordingFetch } from 'tool-search-testing';
import {
  anthropicMessage,
  anthropicText,
  anthropicToolUse,
  openaiFunctionCall,
  openaiMessage,
  openaiResponse,
  openaiSearchCall,
} from 'tool-search-testing/provider-responses';
import { describe, expect, it } from 'vitest';
import { createAnthropicNativeToolSearch } from '../anthropic';
import { createOpenAINativeToolSearch } from '../openai';
import { createLargeAiCatalog } from '../test-utils/large-ai-catalog';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

// A hang guard, not a timing: a real SDK over 1,000 tools on a busy 2-core machine can pass 5 s.
describe('native tool search in a Mastra agent', { timeout: HANG_GUARD_MS }, () => {
  it('carries Anthropic’s deferred tools and tool references', async () => {
    const { tools, executions } = createLargeAiCatalog();
    const toolSearch = createAnthropicNativeToolSearch({ tools });
    const recording = createRecordingFetch([
      anthropicMessage([
        anthropicToolUse('toolu_1', 'search_tools', { query: 'create github issue' }),
      ]),
      anthropicMessage([anthropicToolUse('toolu_2', 'github__create_issue', { note: 'x' })]),
      anthropicMessage([anthropicText('Opened.')]),
    ]);
    const anthropic = createAnthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch });
    const agent = new Agent({
      id: 'native',
      name: 'native',
      instructions: 'Use tools.',
      // Mastra types models and tools apart from ai 7's own; it runs them as they are.
      model: anthropic('claude-sonnet-4-5') as never,
      tools: toolSearch.tools as never,
    });
    const result = await agent.generate('Open a GitHub issue', { maxSteps: 5 });
    const bodies = recording.requests.map(
      (request) =>
        request.body as { tools: { defer_loading?: boolean }[]; messages: { content: unknown }[] },
    );
    expect(bodies).toHaveLength(3);
    expect(bodies[0]!.tools).toHaveLength(1_001);
    expect(bodies[0]!.tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    for (const body of bodies.slice(1)) expect(body.tools).toEqual(bodies[0]!.tools);
    expect(bodies[1]!.messages.at(-1)!.content).toEqual([
      expect.objectContaining({
        tool_use_id: 'toolu_1',
        content: expect.arrayContaining([
          { type: 'tool_reference', tool_name: 'github__create_issue' },
        ]),
      }),
    ]);
    expect(executions).toEqual({ github__create_issue: [{ note: 'x' }] });
    expect(result.text).toBe('Opened.');
  });

  it('carries OpenAI’s namespaces and client-run tool search', async () => {
    const { tools, executions, services } = createLargeAiCatalog();
    const names = Object.keys(tools);
    const toolSearch = createOpenAINativeToolSearch({
      tools,
      group: (tool) => {
        const service = services[names.indexOf(tool.id)]!;
        return { name: service.name, description: `${service.title} tools` };
      },
    });
    const recording = createRecordingFetch([
      openaiResponse('resp_1', [openaiSearchCall('call_1', 'create github issue')]),
      openaiResponse('resp_2', [
        openaiFunctionCall('call_2', 'github__create_issue', { note: 'x' }, 'github'),
      ]),
      openaiResponse('resp_3', [openaiMessage('Opened.')]),
    ]);
    const openai = createOpenAI({ apiKey: 'sk-test', fetch: recording.fetch });
    const agent = new Agent({
      id: 'native',
      name: 'native',
      instructions: 'Use tools.',
      model: openai.responses('gpt-5.4') as never,
      tools: toolSearch.tools as never,
    });
    await agent.generate('Open a GitHub issue', { maxSteps: 5 });
    const bodies = recording.requests.map(
      (request) => request.body as { tools: { type: string }[]; input: Record<string, unknown>[] },
    );
    expect(bodies[0]!.tools).toHaveLength(151);
    expect(bodies[0]!.tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    for (const body of bodies.slice(1)) expect(body.tools).toEqual(bodies[0]!.tools);
    const output = bodies[1]!.input.find((item) => item.type === 'tool_search_output')!;
    expect(JSON.stringify(output.tools)).toContain('"name":"github__create_issue"');
    expect(executions).toEqual({ github__create_issue: [{ note: 'x' }] });
  });
});
