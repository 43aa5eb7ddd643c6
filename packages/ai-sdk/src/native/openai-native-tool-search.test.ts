import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { createRecordingFetch } from 'tool-search-testing';
import {
  openaiFunctionCall,
  openaiMessage,
  openaiResponse,
  openaiSearchCall,
} from 'tool-search-testing/provider-responses';
import { describe, expect, it } from 'vitest';
import { createOpenAINativeToolSearch, type OpenAINativeToolSearchOptions } from '../openai';
import { createLargeAiCatalog } from '../test-utils/large-ai-catalog';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

type Body = { tools: Record<string, unknown>[]; input: Record<string, unknown>[] };
type Namespace = {
  type: string;
  name: string;
  description: string;
  tools: { name: string; defer_loading?: boolean }[];
};

const searchThenCreate = [
  openaiResponse('resp_1', [openaiSearchCall('call_search', 'create github issue')]),
  openaiResponse('resp_2', [
    openaiFunctionCall('call_issue', 'github__create_issue', { note: 'Login is blank' }, 'github'),
  ]),
  openaiResponse('resp_3', [openaiMessage('Opened the issue.')]),
];

async function run(
  responses: unknown[],
  options: Partial<OpenAINativeToolSearchOptions<Record<string, never>>> = {},
  messages: ModelMessage[] = [{ role: 'user', content: 'Open a GitHub issue: login is blank' }],
) {
  const { tools, executions, services } = createLargeAiCatalog();
  const serviceOf = new Map(
    Object.keys(tools).map((name, position) => [name, services[position]!]),
  );
  const toolSearch = createOpenAINativeToolSearch({
    tools,
    group: (tool) => {
      const service = serviceOf.get(tool.id)!;
      return { name: service.name, description: `${service.title} tools` };
    },
    ...options,
  });
  const recording = createRecordingFetch(responses);
  const openai = createOpenAI({ apiKey: 'sk-test', fetch: recording.fetch });
  const result = await generateText({
    model: openai.responses('gpt-5.4'),
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
describe('createOpenAINativeToolSearch', { timeout: HANG_GUARD_MS }, () => {
  it('finds, loads and calls a namespaced tool of a 1,000-tool catalog through @ai-sdk/openai, the tools identical every step', async () => {
    const { bodies, executions, result, requests } = await run(searchThenCreate);
    expect(requests.map((request) => request.url)).toEqual(
      Array(3).fill('https://api.openai.com/v1/responses'),
    );
    const tools = bodies[0]!.tools;
    expect(tools[0]).toEqual({
      type: 'tool_search',
      execution: 'client',
      description: expect.stringContaining('Search the tool catalog'),
      parameters: expect.objectContaining({ required: ['query'] }),
    });
    const namespaces = tools.slice(1) as Namespace[];
    expect(namespaces).toHaveLength(150);
    expect(namespaces.every((entry) => entry.type === 'namespace' && entry.tools.length <= 9)).toBe(
      true,
    );
    const functions = namespaces.flatMap((entry) => entry.tools);
    expect(functions).toHaveLength(1_000);
    expect(functions.every((tool) => tool.defer_loading === true)).toBe(true);
    for (const body of bodies.slice(1)) expect(body.tools).toEqual(tools);

    // The provider stores responses by default, so the call comes back as a reference to it.
    expect(bodies[1]!.input).toContainEqual({ type: 'item_reference', id: 'ts_call_search' });
    const output = bodies[1]!.input.find((item) => item.type === 'tool_search_output')!;
    expect(output).toMatchObject({
      execution: 'client',
      call_id: 'call_search',
      status: 'completed',
    });
    const loaded = output.tools as Namespace[];
    expect(loaded[0]).toMatchObject({
      type: 'namespace',
      name: 'github',
      description: 'GitHub tools (part 1 of 3)',
    });
    expect(loaded[0]!.tools[0]).toMatchObject({
      type: 'function',
      name: 'github__create_issue',
      defer_loading: true,
      parameters: expect.objectContaining({ type: 'object' }),
    });
    expect(loaded.flatMap((entry) => entry.tools)).toHaveLength(5);
    expect(executions).toEqual({ github__create_issue: [{ note: 'Login is blank' }] });
    expect(bodies[2]!.input.find((item) => item.type === 'function_call_output')).toMatchObject({
      call_id: 'call_issue',
    });
    expect(result.text).toBe('Opened the issue.');
  });

  it('never lists or returns a tool the filter denies, and denies its call without running it', async () => {
    const { bodies, executions } = await run(
      [
        openaiResponse('resp_1', [openaiSearchCall('call_search', 'delete github issue')]),
        openaiResponse('resp_2', [
          openaiFunctionCall('call_x', 'github__delete_issue', { issue_id: '7' }, 'github'),
        ]),
        openaiResponse('resp_3', [openaiMessage('I may not.')]),
      ],
      { filter: ({ toolName }) => toolName !== 'github__delete_issue' },
    );
    for (const body of bodies)
      expect(JSON.stringify(body.tools)).not.toContain('github__delete_issue');
    const output = bodies[1]!.input.find((item) => item.type === 'tool_search_output')!;
    expect(JSON.stringify(output.tools)).not.toContain('github__delete_issue');
    expect(JSON.stringify(output.tools)).toContain('github__');
    expect(executions).toEqual({});
  });

  it('lists top-level deferred functions without groups, and denies a call no search loaded', async () => {
    const { bodies, executions } = await run(
      [
        openaiResponse('resp_1', [
          openaiFunctionCall('call_x', 'github__create_issue', { note: 'x' }),
        ]),
        openaiResponse('resp_2', [openaiMessage('Denied.')]),
      ],
      { group: undefined },
    );
    expect(bodies[0]!.tools[1]).toMatchObject({
      type: 'function',
      name: 'github__create_issue',
      defer_loading: true,
    });
    expect(executions).toEqual({});
  });
});
