import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { createRecordingFetch } from 'tool-search-testing';
import {
  anthropicMessage,
  anthropicText,
  anthropicToolUse,
} from 'tool-search-testing/provider-responses';
import { describe, expect, it } from 'vitest';
import { createAnthropicNativeToolSearch } from '../anthropic';
import type { ToolSearchOptions } from '../index';
import { createLargeAiCatalog } from '../test-utils/large-ai-catalog';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

type Body = {
  tools: { name: string; defer_loading?: boolean }[];
  messages: { role: string; content: unknown }[];
};

const searchThenCreate = [
  anthropicMessage([anthropicToolUse('toolu_1', 'search_tools', { query: 'create github issue' })]),
  anthropicMessage([
    anthropicToolUse('toolu_2', 'github__create_issue', { note: 'Login is blank' }),
  ]),
  anthropicMessage([anthropicText('Opened the issue.')]),
];

async function run(
  responses: unknown[],
  options: Partial<ToolSearchOptions<Record<string, never>>> = {},
  messages: ModelMessage[] = [{ role: 'user', content: 'Open a GitHub issue: login is blank' }],
) {
  const { tools, executions } = createLargeAiCatalog();
  const toolSearch = createAnthropicNativeToolSearch({ tools, ...options });
  const recording = createRecordingFetch(responses);
  const anthropic = createAnthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch });
  const result = await generateText({
    model: anthropic('claude-sonnet-4-5'),
    tools: toolSearch.tools,
    prepareStep: toolSearch.prepareStep,
    toolApproval: toolSearch.toolApproval,
    stopWhen: stepCountIs(5),
    messages,
  });
  const bodies = recording.requests.map((request) => request.body as Body);
  return { result, bodies, executions, requests: recording.requests };
}

// A hang guard, not a timing: a real SDK over 1,000 tools on a busy 2-core machine can pass 5 s.
describe('createAnthropicNativeToolSearch', { timeout: HANG_GUARD_MS }, () => {
  it('finds, loads and calls a tool of a 1,000-tool catalog through @ai-sdk/anthropic, the tools identical every step', async () => {
    const { bodies, executions, result, requests } = await run(searchThenCreate);
    expect(requests.map((request) => request.url)).toEqual(
      Array(3).fill('https://api.anthropic.com/v1/messages'),
    );
    const tools = bodies[0]!.tools;
    expect(tools).toHaveLength(1_001);
    expect(tools[0]).toMatchObject({ name: 'search_tools', input_schema: { type: 'object' } });
    expect(tools[0]).not.toHaveProperty('defer_loading');
    expect(tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    for (const body of bodies.slice(1)) expect(body.tools).toEqual(tools);

    const searchResult = bodies[1]!.messages.at(-1)!.content as {
      type: string;
      tool_use_id: string;
      content: { type: string; tool_name: string }[];
    }[];
    expect(searchResult[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(searchResult[0]!.content).toHaveLength(5);
    expect(searchResult[0]!.content[0]).toEqual({
      type: 'tool_reference',
      tool_name: 'github__create_issue',
    });
    expect(executions).toEqual({ github__create_issue: [{ note: 'Login is blank' }] });
    expect(bodies[2]!.messages.at(-1)!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_2' }),
    ]);
    expect(result.text).toBe('Opened the issue.');
  });

  it('never references a tool the filter denies, and denies its call without running it', async () => {
    const { bodies, executions } = await run(
      [
        anthropicMessage([
          anthropicToolUse('toolu_1', 'search_tools', { query: 'delete github issue' }),
        ]),
        anthropicMessage([anthropicToolUse('toolu_2', 'github__delete_issue', { issue_id: '7' })]),
        anthropicMessage([anthropicText('I may not.')]),
      ],
      { filter: ({ toolName }) => toolName !== 'github__delete_issue' },
    );
    const references = JSON.stringify(bodies[1]!.messages.at(-1)!.content);
    expect(references).toContain('tool_reference');
    expect(references).not.toContain('github__delete_issue');
    expect(executions).toEqual({});
    // Not sent, so the AI SDK answers the call itself: an error naming no denied tool's text.
    for (const body of bodies) {
      expect(body.tools.map((tool) => tool.name)).not.toContain('github__delete_issue');
      expect(JSON.stringify(body)).not.toContain('Delete one issue in GitHub.');
    }
    expect(bodies[2]!.messages.at(-1)!.content).toEqual([
      expect.objectContaining({ tool_use_id: 'toolu_2', is_error: true }),
    ]);
  });

  it('denies a call to a tool no search loaded, and allows it in the next turn once loaded', async () => {
    const first = await run(
      searchThenCreate.slice(0, 1).concat(anthropicMessage([anthropicText('Found it.')])),
    );
    expect(first.executions).toEqual({});
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Open a GitHub issue' },
      ...first.result.responseMessages,
      { role: 'user', content: 'Go ahead.' },
    ];
    const second = await run(searchThenCreate.slice(1), {}, messages);
    expect(second.executions).toEqual({ github__create_issue: [{ note: 'Login is blank' }] });

    const blind = await run([
      anthropicMessage([anthropicToolUse('toolu_9', 'github__create_issue', { note: 'x' })]),
      anthropicMessage([anthropicText('Denied.')]),
    ]);
    expect(blind.executions).toEqual({});
  });

  it('keeps loads per thread under in-memory storage', async () => {
    const { tools, executions } = createLargeAiCatalog();
    const toolSearch = createAnthropicNativeToolSearch({
      tools,
      storage: 'in-memory',
      threadId: (context) => (context as { thread?: string } | undefined)?.thread,
    });
    const turn = async (responses: unknown[], thread: string) => {
      const recording = createRecordingFetch(responses);
      const anthropic = createAnthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch });
      await generateText({
        model: anthropic('claude-sonnet-4-5'),
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        toolApproval: toolSearch.toolApproval,
        runtimeContext: { thread },
        stopWhen: stepCountIs(5),
        prompt: 'Open a GitHub issue',
      });
    };
    await turn([searchThenCreate[0], anthropicMessage([anthropicText('Found.')])], 'a');
    await turn(searchThenCreate.slice(1), 'b');
    expect(executions).toEqual({});
    await turn(searchThenCreate.slice(1), 'a');
    expect(executions).toEqual({ github__create_issue: [{ note: 'Login is blank' }] });
  });

  it('sends pinned tools loaded, and denies a tool the budget evicted', async () => {
    const { bodies, executions } = await run(
      [
        anthropicMessage([
          anthropicToolUse('toolu_1', 'search_tools', { query: 'create github issue' }),
        ]),
        anthropicMessage([
          anthropicToolUse('toolu_2', 'search_tools', { query: 'create slack channel message' }),
        ]),
        anthropicMessage([anthropicToolUse('toolu_3', 'github__create_issue', { note: 'x' })]),
        anthropicMessage([anthropicText('It was unloaded.')]),
      ],
      { alwaysLoaded: ['weather__get_forecast'], maxLoadedTools: 1, search: { topK: 1 } },
    );
    expect(bodies[0]!.tools.slice(0, 2)).toEqual([
      expect.objectContaining({ name: 'search_tools' }),
      expect.not.objectContaining({ defer_loading: true }),
    ]);
    expect(bodies[0]!.tools[1]!.name).toBe('weather__get_forecast');
    for (const body of bodies.slice(1)) expect(body.tools).toEqual(bodies[0]!.tools);
    expect(executions).toEqual({});
    expect(JSON.stringify(bodies[3]!.messages.at(-1)!.content)).toContain('is not loaded');
  });
});
