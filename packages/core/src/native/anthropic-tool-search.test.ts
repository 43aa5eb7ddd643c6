import Anthropic from '@anthropic-ai/sdk';
import {
  createLargeCatalog,
  createRecordingFetch,
  type LargeCatalogTool,
} from 'tool-search-testing';
import {
  anthropicMessage,
  anthropicText,
  anthropicToolUse,
} from 'tool-search-testing/provider-responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createToolSearchEngine, type ToolSearchEngineOptions } from '../index';
import {
  createAnthropicToolSearch,
  toolResultsFromAnthropicMessages,
} from './anthropic-tool-search';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

type Message = Anthropic.Messages.Message;
const reply = anthropicMessage;
const toolUse = anthropicToolUse;
const text = anthropicText;

const catalog = createLargeCatalog();
const byId = Object.fromEntries(catalog.map((tool) => [tool.id, tool]));

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
  responses: Message[];
  prompt: string;
}) {
  const engine = engineOf(options.engineOptions);
  const session = engine.createSession({ threadId: 'thread-1' });
  const search = await createAnthropicToolSearch(session);
  const recording = createRecordingFetch(options.responses);
  const client = new Anthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch, maxRetries: 0 });
  const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: options.prompt }];
  const ran: { name: string; input: unknown }[] = [];
  for (let step = 0; step < options.responses.length; step++) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: search.tools,
      messages,
    });
    messages.push({ role: 'assistant', content: message.content });
    if (message.stop_reason !== 'tool_use') break;
    const results: Anthropic.Messages.ToolResultBlockParam[] = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      if (search.isSearchCall(block)) {
        results.push(await search.answer(block));
      } else if (await session.isActive(block.name)) {
        ran.push({ name: block.name, input: block.input });
        results.push({ type: 'tool_result', tool_use_id: block.id, content: '{"ok":true}' });
      } else {
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: `Unknown tool ${block.name}`,
          is_error: true,
        });
      }
    }
    messages.push({ role: 'user', content: results });
  }
  return { requests: recording.requests, ran, messages, session, search };
}

const createIssue = [
  reply([toolUse('toolu_1', 'search_tools', { query: 'create github issue' })]),
  reply([toolUse('toolu_2', 'github__create_issue', { note: 'Login page is blank' })]),
  reply([text('Opened the issue.')]),
];

// A hang guard, not a timing: a real SDK over 1,000 tools on a busy 2-core machine can pass 5 s.
describe('createAnthropicToolSearch', { timeout: HANG_GUARD_MS }, () => {
  it('finds, loads and calls a tool of a 1,000-tool catalog with identical tools every step', async () => {
    const { requests, ran } = await runLoop({
      responses: createIssue,
      prompt: 'Open a GitHub issue: the login page is blank',
    });
    expect(requests).toHaveLength(3);
    expect(requests[0]!.url).toBe('https://api.anthropic.com/v1/messages');
    expect(requests[0]!.headers['anthropic-version']).toBeDefined();
    const tools = requests[0]!.body.tools as Record<string, unknown>[];
    expect(tools).toHaveLength(1_001);
    expect(tools[0]).toMatchObject({ name: 'search_tools', input_schema: { type: 'object' } });
    expect(tools[0]).not.toHaveProperty('defer_loading');
    expect(tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    expect(tools[1]).toEqual({
      name: 'github__create_issue',
      description: 'Create a new issue in GitHub.',
      input_schema: byId.github__create_issue!.inputSchema,
      defer_loading: true,
    });
    for (const request of requests.slice(1)) expect(request.body.tools).toEqual(tools);

    const searchResult = (requests[1]!.body.messages as { content: unknown }[]).at(-1)!.content;
    expect(searchResult).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: expect.arrayContaining([
          { type: 'tool_reference', tool_name: 'github__create_issue' },
        ]),
      },
    ]);
    const references = (searchResult as { content: { tool_name: string }[] }[])[0]!.content;
    expect(references[0]!.tool_name).toBe('github__create_issue');
    expect(references).toHaveLength(5);
    expect(ran).toEqual([{ name: 'github__create_issue', input: { note: 'Login page is blank' } }]);
    const callResult = (requests[2]!.body.messages as { content: unknown }[]).at(-1)!.content;
    expect(callResult).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_2', content: '{"ok":true}' },
    ]);
  });

  it('sends no tool the filter denies, and references only what it may load', async () => {
    const denied: string[] = [];
    const { requests } = await runLoop({
      engineOptions: {
        filter: ({ toolName, phase }) =>
          !toolName.startsWith('github__delete') &&
          !(phase === 'load' && toolName === 'github__copy_issue'),
        onDenied: (event) => denied.push(`${event.toolName}:${event.phase}`),
        search: { topK: 3 },
      },
      responses: [
        reply([toolUse('toolu_1', 'search_tools', { query: 'delete github issue' })]),
        reply([text('done')]),
      ],
      prompt: 'Delete the duplicate issue',
    });
    // What the SDK sent: neither the denied tool's name nor its description reaches the provider.
    for (const request of requests) {
      const body = JSON.stringify(request.body);
      expect(body).not.toContain('github__delete_issue');
      expect(body).not.toContain(byId.github__delete_issue!.description);
    }
    const tools = requests[0]!.body.tools as { name: string }[];
    expect(tools).toHaveLength(1_000);
    expect(requests[1]!.body.tools).toEqual(tools);
    const result = (requests[1]!.body.messages as { content: { content: unknown }[] }[]).at(-1)!
      .content[0]!.content as { tool_name: string }[];
    const referenced = result.map((reference) => reference.tool_name);
    expect(referenced).toHaveLength(3);
    expect(referenced).not.toContain('github__copy_issue');
    expect(denied).toContain('github__copy_issue:load');
    expect(denied).toContain('github__delete_issue:search');
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
        const search = await createAnthropicToolSearch(
          engine.createSession({ threadId: team, requestContext: { team } }),
        );
        const recording = createRecordingFetch([reply([text('ok')])]);
        const client = new Anthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch });
        await client.messages.create({
          model: 'claude-sonnet-4-5',
          max_tokens: 64,
          tools: search.tools,
          messages: [{ role: 'user', content: 'hi' }],
        });
        bodies.push(JSON.stringify(recording.requests[0]!.body.tools));
      }
      return bodies;
    };
    const [payments, support] = await Promise.all([sent('payments'), sent('support')]);
    expect(payments[1]).toBe(payments[0]);
    expect(support[1]).toBe(support[0]);
    const names = (body: string) =>
      (JSON.parse(body) as { name: string }[]).map((tool) => tool.name);
    expect(names(payments[0]!)).toHaveLength(41);
    expect(
      names(payments[0]!)
        .slice(1)
        .every((name) => /^(stripe|paypal)__/.test(name)),
    ).toBe(true);
    expect(
      names(support[0]!)
        .slice(1)
        .every((name) => /^(zendesk|intercom)__/.test(name)),
    ).toBe(true);
    expect(support[0]).not.toContain(byId.stripe__create_payment!.description);
  });

  it('lists a referenced tool the filter denies since by name alone, so the API accepts the conversation', async () => {
    let allowed = true;
    const engine = engineOf({
      filter: ({ toolName }) => allowed || toolName !== 'github__create_issue',
    });
    const recording = createRecordingFetch([
      reply([toolUse('toolu_1', 'search_tools', { query: 'create github issue' })]),
      reply([toolUse('toolu_2', 'github__create_issue', { note: 'x' })]),
      reply([text('It is not available.')]),
    ]);
    const client = new Anthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch, maxRetries: 0 });
    const messages: Anthropic.Messages.MessageParam[] = [
      { role: 'user', content: 'Open an issue' },
    ];
    const ran: string[] = [];
    for (let step = 0; step < 3; step++) {
      // Per request: a session and a tools array built from the conversation so far.
      const session = engine.createSession({ threadId: 'flip' });
      const search = await createAnthropicToolSearch(session, { messages });
      const message = await client.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        tools: search.tools,
        messages,
      });
      messages.push({ role: 'assistant', content: message.content });
      if (message.stop_reason !== 'tool_use') break;
      const results: Anthropic.Messages.ToolResultBlockParam[] = [];
      for (const block of message.content) {
        if (block.type !== 'tool_use') continue;
        if (search.isSearchCall(block)) results.push(await search.answer(block));
        else if (await session.isActive(block.name)) ran.push(block.name);
        else
          results.push({
            type: 'tool_result',
            tool_use_id: block.id,
            content: 'refused',
            is_error: true,
          });
      }
      messages.push({ role: 'user', content: results });
      // The policy changes once the search has referenced the tool.
      allowed = false;
    }
    const [first, second, third] = recording.requests.map(
      (request) => request.body.tools as { name: string; description?: string }[],
    );
    expect(first!.find((tool) => tool.name === 'github__create_issue')?.description).toBe(
      byId.github__create_issue!.description,
    );
    for (const tools of [second!, third!]) {
      const listed = tools.filter((tool) => tool.name === 'github__create_issue');
      expect(listed).toEqual([
        {
          name: 'github__create_issue',
          description: 'Not available: do not call this tool.',
          input_schema: { type: 'object', properties: {} },
          defer_loading: true,
        },
      ]);
      expect(JSON.stringify(tools)).not.toContain(byId.github__create_issue!.description);
    }
    expect(third).toEqual(second);
    expect(ran).toEqual([]);
    // Without `messages`, the thread's loads stand for what the conversation referenced.
    const fromThread = await createAnthropicToolSearch(engine.createSession({ threadId: 'flip' }));
    expect(fromThread.tools.filter((tool) => tool.name === 'github__create_issue')).toEqual([
      expect.objectContaining({ description: 'Not available: do not call this tool.' }),
    ]);
  });

  it('answers a search that finds nothing, or has no query, with a sentence', async () => {
    const search = await createAnthropicToolSearch(engineOf().createSession());
    expect(await search.answer({ id: 'a', input: { query: 'zzqx vvbn' } })).toEqual({
      type: 'tool_result',
      tool_use_id: 'a',
      content: expect.stringContaining('No tools found matching "zzqx vvbn"'),
    });
    expect((await search.answer({ id: 'b', input: { limit: 3 } })).content).toContain('"query"');
    expect((await search.answer({ id: 'c', input: '{"query":' })).content).toContain('"query"');
    expect((await search.answer({ id: 'd', input: { query: '   ' } })).content).toContain('empty');
  });

  it('refuses a tool the model calls without a search loading it', async () => {
    const { ran, requests } = await runLoop({
      responses: [
        reply([toolUse('toolu_1', 'stripe__delete_payment', { payment_id: 'pi_1' })]),
        reply([text('I could not.')]),
      ],
      prompt: 'Refund everything',
    });
    expect(ran).toEqual([]);
    const refusal = (requests[1]!.body.messages as { content: unknown[] }[]).at(-1)!.content[0];
    expect(refusal).toMatchObject({
      is_error: true,
      content: 'Unknown tool stripe__delete_payment',
    });
  });

  it('sends pinned tools loaded, after the search tool, and never references them', async () => {
    const engine = engineOf({ alwaysLoaded: ['weather__get_forecast'], search: { topK: 2 } });
    const search = await createAnthropicToolSearch(engine.createSession());
    expect(search.tools.slice(0, 2).map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['search_tools', undefined],
      ['weather__get_forecast', undefined],
    ]);
    expect(search.tools.filter((tool) => tool.name === 'weather__get_forecast')).toHaveLength(1);
    const answer = await search.answer({ id: 'x', input: { query: 'get weather forecast' } });
    expect(JSON.stringify(answer.content)).not.toContain('weather__get_forecast');
  });

  it('keeps loads per thread within the budget', async () => {
    const engine = engineOf({ maxLoadedTools: 1, search: { topK: 1 } });
    const first = await createAnthropicToolSearch(engine.createSession({ threadId: 't' }));
    await first.answer({ id: '1', input: { query: 'create github issue' } });
    await first.answer({ id: '2', input: { query: 'create slack channel message' } });
    const later = engine.createSession({ threadId: 't' });
    expect(await later.isActive('slack__create_channel_message')).toBe(true);
    expect(await later.isActive('github__create_issue')).toBe(false);
    expect(
      await engine.createSession({ threadId: 'other' }).isActive('slack__create_channel_message'),
    ).toBe(false);
  });

  it('reads the loads of a conversation back for context storage', async () => {
    const { messages } = await runLoop({
      responses: createIssue.slice(0, 2),
      prompt: 'Open a GitHub issue',
    });
    const records = toolResultsFromAnthropicMessages(messages);
    expect(records).toHaveLength(1);
    const engine = engineOf({ storage: 'context' });
    const session = engine.createSession({ toolResults: records });
    expect(await session.isActive('github__create_issue')).toBe(true);
    expect(await engine.createSession().isActive('github__create_issue')).toBe(false);
    expect(toolResultsFromAnthropicMessages([null, { role: 'user', content: 'hi' }, 7])).toEqual(
      [],
    );
  });

  it('refuses a catalog whose tool names the API would refuse', async () => {
    const engine = createToolSearchEngine({
      tools: { 'github.create-issue': { description: 'Open an issue' } },
      describe: (tool, key) => ({ id: key, description: tool.description }),
    });
    await expect(createAnthropicToolSearch(engine.createSession())).rejects.toThrow(
      /"github\.create-issue"/,
    );
  });

  it('produces the SDK’s own types', async () => {
    const search = await createAnthropicToolSearch(engineOf().createSession());
    expectTypeOf(search.tools).toExtend<Anthropic.Messages.ToolUnion[]>();
    expectTypeOf(
      search.answer,
    ).returns.resolves.toExtend<Anthropic.Messages.ToolResultBlockParam>();
  });
});
