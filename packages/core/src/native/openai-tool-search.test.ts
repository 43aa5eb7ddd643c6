import OpenAI from 'openai';
import {
  createLargeCatalog,
  createRecordingFetch,
  type LargeCatalogTool,
} from 'tool-search-testing';
import {
  type OpenAIResponseBody,
  openaiFunctionCall,
  openaiMessage,
  openaiResponse,
  openaiSearchCall,
} from 'tool-search-testing/provider-responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createToolSearchEngine, type ToolSearchEngineOptions } from '../index';
import { assignNamespaces } from './openai-namespaces';
import { createOpenAIToolSearch, toolResultsFromOpenAIInput } from './openai-tool-search';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

type RawResponse = OpenAIResponseBody;
type OutputItem = OpenAI.Responses.ResponseOutputItem;
const reply = (output: OutputItem[]) => openaiResponse(`resp_${output[0]?.type}`, output);
const searchCall = openaiSearchCall;
const functionCall = openaiFunctionCall;
const answer = openaiMessage;

const catalog = createLargeCatalog();
const byId = Object.fromEntries(catalog.map((tool) => [tool.id, tool]));
/** One namespace per service, as one per MCP server would be. */
const byService = (tool: { id: string }) => {
  const { name, title } = byId[tool.id]!.service;
  return { name, description: `${title} tools` };
};

function engineOf(options: Partial<ToolSearchEngineOptions<LargeCatalogTool>> = {}) {
  return createToolSearchEngine<LargeCatalogTool>({
    tools: byId,
    describe: (tool) => ({
      id: tool.id,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }),
    ...options,
  });
}

/** A custom agent loop on the real SDK: search through ours, run what the session allows. */
async function runLoop(options: {
  engineOptions?: Partial<ToolSearchEngineOptions<LargeCatalogTool>>;
  grouped?: boolean;
  responses: RawResponse[];
}) {
  const engine = engineOf(options.engineOptions);
  const session = engine.createSession({ threadId: 'thread-1' });
  const search = await createOpenAIToolSearch(session, options.grouped ? { group: byService } : {});
  const recording = createRecordingFetch(options.responses);
  const client = new OpenAI({ apiKey: 'sk-test', fetch: recording.fetch, maxRetries: 0 });
  const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Open a GitHub issue' }];
  const ran: { name: string; namespace: string | undefined; args: unknown }[] = [];
  for (let step = 0; step < options.responses.length; step++) {
    const response = await client.responses.create({
      model: 'gpt-5.4',
      input,
      tools: search.tools,
    });
    input.push(...response.output.filter(isReplayable));
    let called = false;
    for (const item of response.output) {
      if (search.isSearchCall(item)) {
        called = true;
        input.push(await search.answer(item));
      } else if (item.type === 'function_call') {
        called = true;
        const allowed = await session.isActive(item.name);
        if (allowed)
          ran.push({
            name: item.name,
            namespace: item.namespace,
            args: JSON.parse(item.arguments),
          });
        input.push({
          type: 'function_call_output',
          call_id: item.call_id,
          output: allowed ? '{"ok":true}' : `Unknown tool ${item.name}`,
        });
      }
    }
    if (!called) break;
  }
  return { requests: recording.requests, ran, input, session, search };
}

const createIssue = [
  reply([searchCall('call_search', 'create github issue')]),
  reply([
    functionCall('call_issue', 'github__create_issue', { note: 'Login page is blank' }, 'github'),
  ]),
  reply([answer('Opened the issue.')]),
];

/** The output items a client sends back as input (the rest are the server's own records). */
function isReplayable(
  item: OutputItem,
): item is Extract<
  OutputItem,
  { type: 'tool_search_call' | 'function_call' | 'message' | 'reasoning' }
> {
  return ['tool_search_call', 'function_call', 'message', 'reasoning'].includes(item.type);
}

type Body = { tools: Record<string, unknown>[]; input: Record<string, unknown>[] };

// A hang guard, not a timing: a real SDK over 1,000 tools on a busy 2-core machine can pass 5 s.
describe('createOpenAIToolSearch', { timeout: HANG_GUARD_MS }, () => {
  it('finds, loads and calls a namespaced tool of a 1,000-tool catalog with identical tools every step', async () => {
    const { requests, ran } = await runLoop({ grouped: true, responses: createIssue });
    expect(requests).toHaveLength(3);
    expect(requests[0]!.url).toBe('https://api.openai.com/v1/responses');
    const { tools } = requests[0]!.body as Body;
    expect(tools[0]).toEqual({
      type: 'tool_search',
      execution: 'client',
      description: expect.stringContaining('Search the tool catalog'),
      parameters: expect.objectContaining({ required: ['query'] }),
    });
    const namespaces = tools.slice(1) as {
      type: string;
      name: string;
      tools: { defer_loading?: boolean }[];
    }[];
    // 50 services of 20 tools, split to stay under ten functions per namespace: 9 + 9 + 2.
    expect(namespaces).toHaveLength(150);
    expect(namespaces.every((entry) => entry.type === 'namespace' && entry.tools.length <= 9)).toBe(
      true,
    );
    expect(namespaces.flatMap((entry) => entry.tools)).toHaveLength(1_000);
    expect(
      namespaces.flatMap((entry) => entry.tools).every((tool) => tool.defer_loading === true),
    ).toBe(true);
    expect(namespaces.slice(0, 3).map((entry) => [entry.name, entry.tools.length])).toEqual([
      ['github', 9],
      ['github_2', 9],
      ['github_3', 2],
    ]);
    for (const request of requests.slice(1)) expect((request.body as Body).tools).toEqual(tools);

    const output = (requests[1]!.body as Body).input.at(-1)!;
    expect(output).toMatchObject({
      type: 'tool_search_output',
      call_id: 'call_search',
      execution: 'client',
      status: 'completed',
    });
    const loaded = output.tools as {
      type: string;
      name: string;
      description: string;
      tools: unknown[];
    }[];
    expect(loaded[0]).toEqual({
      type: 'namespace',
      name: 'github',
      description: 'GitHub tools (part 1 of 3)',
      tools: [
        {
          type: 'function',
          name: 'github__create_issue',
          description: 'Create a new issue in GitHub.',
          parameters: byId.github__create_issue!.inputSchema,
          strict: false,
          defer_loading: true,
        },
        expect.objectContaining({ type: 'function' }),
        expect.objectContaining({ type: 'function' }),
        expect.objectContaining({ type: 'function' }),
        expect.objectContaining({ type: 'function' }),
      ].slice(0, loaded[0]!.tools.length),
    });
    expect(loaded.flatMap((entry) => entry.tools)).toHaveLength(5);
    expect(ran).toEqual([
      { name: 'github__create_issue', namespace: 'github', args: { note: 'Login page is blank' } },
    ]);
    expect((requests[2]!.body as Body).input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_issue',
      output: '{"ok":true}',
    });
  });

  it('lists top-level deferred functions when the catalog has no groups', async () => {
    const { requests } = await runLoop({
      responses: [reply([searchCall('c1', 'get weather forecast')]), reply([answer('Sunny.')])],
    });
    const { tools } = requests[0]!.body as Body;
    expect(tools).toHaveLength(1_001);
    expect(tools[1]).toEqual({
      type: 'function',
      name: 'github__create_issue',
      description: 'Create a new issue in GitHub.',
      parameters: byId.github__create_issue!.inputSchema,
      strict: false,
      defer_loading: true,
    });
    const output = (requests[1]!.body as Body).input.at(-1)!;
    expect((output.tools as { name: string }[])[0]!.name).toBe('weather__get_forecast');
  });

  it('never lists or returns a tool the filter denies', async () => {
    const { requests } = await runLoop({
      grouped: true,
      engineOptions: {
        filter: ({ toolName, phase }) =>
          toolName !== 'github__delete_issue' &&
          !(phase === 'load' && toolName === 'github__copy_issue'),
        search: { topK: 3 },
      },
      responses: [reply([searchCall('c1', 'delete github issue')]), reply([answer('ok')])],
    });
    const listed = JSON.stringify((requests[0]!.body as Body).tools);
    expect(listed).not.toContain('github__delete_issue');
    expect(listed).toContain('github__copy_issue');
    const output = (requests[1]!.body as Body).input.at(-1)!;
    const returned = JSON.stringify(output.tools);
    expect(returned).not.toContain('github__delete_issue');
    expect(returned).not.toContain('github__copy_issue');
    expect((output.tools as { tools: unknown[] }[]).flatMap((entry) => entry.tools)).toHaveLength(
      3,
    );
  });

  it('sends each caller only what its own filter answers allow, the same array every step', async () => {
    type Caller = { team: 'payments' | 'support' };
    const engine = createToolSearchEngine<LargeCatalogTool, Caller>({
      tools: byId,
      describe: (tool) => ({ id: tool.id, description: tool.description }),
      // Each team sees its services only: the answer depends on who asks.
      filter: ({ toolName, requestContext }) =>
        requestContext?.team === 'payments'
          ? /^(stripe|paypal)__/.test(toolName)
          : /^(zendesk|intercom)__/.test(toolName),
    });
    const sent = async (team: Caller['team']) => {
      const bodies: string[] = [];
      for (let step = 0; step < 2; step++) {
        // A server builds the tools per request; the filter's answers are the same each time.
        const search = await createOpenAIToolSearch(
          engine.createSession({ threadId: team, requestContext: { team } }),
          { group: byService },
        );
        const recording = createRecordingFetch([reply([answer('ok')])]);
        const client = new OpenAI({ apiKey: 'sk-test', fetch: recording.fetch, maxRetries: 0 });
        await client.responses.create({ model: 'gpt-5.4', input: 'hi', tools: search.tools });
        bodies.push(JSON.stringify((recording.requests[0]!.body as Body).tools));
      }
      return bodies;
    };
    const [payments, support] = await Promise.all([sent('payments'), sent('support')]);
    expect(payments[1]).toBe(payments[0]);
    expect(support[1]).toBe(support[0]);
    // Namespaces by service (split past `maxNamespaceTools`: `stripe`, `stripe_2`...).
    const services = (body: string) => [
      ...new Set(
        (JSON.parse(body) as { type: string; name?: string }[])
          .filter((tool) => tool.type === 'namespace')
          .map((tool) => tool.name!.replace(/_\d+$/, '')),
      ),
    ];
    expect(services(payments[0]!)).toEqual(['stripe', 'paypal']);
    expect(services(support[0]!)).toEqual(['zendesk', 'intercom']);
    expect(support[0]).not.toContain('stripe__');
    expect(support[0]).not.toContain(byId.stripe__create_payment!.description);
  });

  it('answers a search that finds nothing with no tools, and refuses a function never loaded', async () => {
    const { requests, ran } = await runLoop({
      responses: [
        reply([searchCall('c1', 'zzqx vvbn'), functionCall('c2', 'stripe__delete_payment', {})]),
        reply([answer('Nothing to do.')]),
      ],
    });
    const input = (requests[1]!.body as Body).input;
    expect(input).toContainEqual({
      type: 'tool_search_output',
      call_id: 'c1',
      execution: 'client',
      status: 'completed',
      tools: [],
    });
    expect(input.at(-1)).toMatchObject({ output: 'Unknown tool stripe__delete_payment' });
    expect(ran).toEqual([]);
  });

  it('reads the loads of a conversation back for context storage', async () => {
    const { input } = await runLoop({ grouped: true, responses: createIssue.slice(0, 1) });
    const records = toolResultsFromOpenAIInput(input);
    expect(records).toHaveLength(1);
    const session = engineOf({ storage: 'context' }).createSession({ toolResults: records });
    expect(await session.isActive('github__create_issue')).toBe(true);
    expect(await session.isActive('slack__create_channel_message')).toBe(false);
    expect(
      toolResultsFromOpenAIInput([null, 3, { type: 'tool_search_output', tools: 'x' }]),
    ).toEqual([]);
  });

  it('keeps pinned tools loaded at the top level and says where each tool is listed', async () => {
    const engine = engineOf({ alwaysLoaded: ['weather__get_forecast'] });
    const search = await createOpenAIToolSearch(engine.createSession(), { group: byService });
    expect(search.tools[1]).toMatchObject({ type: 'function', name: 'weather__get_forecast' });
    expect(search.tools[1]).not.toHaveProperty('defer_loading');
    expect(search.namespaceOf('github__history_issue')).toBe('github_3');
    expect(JSON.stringify(search.tools.slice(2))).not.toContain('"weather__get_forecast"');
  });

  it('produces the SDK’s own types', async () => {
    const search = await createOpenAIToolSearch(engineOf().createSession(), { group: byService });
    expectTypeOf(search.tools).toExtend<OpenAI.Responses.Tool[]>();
    expectTypeOf(search.answer).returns.resolves.toExtend<OpenAI.Responses.ResponseInputItem>();
  });
});

describe('assignNamespaces', () => {
  const tools = ['a1', 'a2', 'a3', 'b1', 'c1'].map((id) => ({ id }));
  const group = (tool: { id: string }) =>
    tool.id.startsWith('c') ? undefined : { name: tool.id[0]!, description: `group ${tool.id[0]}` };

  it('splits a group past the limit in catalog order and leaves ungrouped tools out', () => {
    const assigned = assignNamespaces(tools, { group, maxNamespaceTools: 2 });
    expect(
      Object.fromEntries([...assigned].map(([id, namespace]) => [id, namespace.name])),
    ).toEqual({
      a1: 'a',
      a2: 'a',
      a3: 'a_2',
      b1: 'b',
    });
    expect(assigned.get('a3')!.description).toBe('group a (part 2 of 2)');
    expect(assigned.get('b1')!.description).toBe('group b');
    expect(assignNamespaces(tools, {}).size).toBe(0);
  });

  it('refuses bad names, two descriptions of one name, and a split onto another group', () => {
    expect(() =>
      assignNamespaces(tools, { group: () => ({ name: 'a b', description: 'x' }) }),
    ).toThrow(/letters, digits/);
    expect(() =>
      assignNamespaces(tools, { group: (tool) => ({ name: 'same', description: tool.id }) }),
    ).toThrow(/two descriptions/);
    const clash = (tool: { id: string }) =>
      tool.id === 'b1' ? { name: 'a_2', description: 'b' } : { name: 'a', description: 'a' };
    expect(() => assignNamespaces(tools, { group: clash, maxNamespaceTools: 2 })).toThrow(/a_2/);
    expect(() => assignNamespaces(tools, { group, maxNamespaceTools: 0 })).toThrow(RangeError);
  });
});
