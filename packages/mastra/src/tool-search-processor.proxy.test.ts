import { expectStablePrefix } from 'tool-search-testing/prompt-prefix';
import { describe, expect, it } from 'vitest';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { runAgent } from './testing/run-agent';
import type { ModelAction } from './testing/scripted-model';
import { ToolSearchProcessor } from './tool-search-processor';

const PROXY_META = ['search_tools', 'load_tool', 'call_tool'];

const callTool = (name: string, args: Record<string, unknown>): ModelAction => ({
  toolName: 'call_tool',
  input: { name, arguments: args },
});

/** Five tools found, loaded and called; refused calls in between; 20 model calls in all. */
const LOADS: [string, string, Record<string, unknown>][] = [
  ['weather forecast', 'get_weather', { city: 'Lisbon' }],
  ['send email', 'send_email', { to: 'ada@example.com', subject: 'Hi', body: 'Hello' }],
  ['github issue', 'github_create_issue', { repo: 'acme/app', title: 'Crash' }],
  ['export workspace csv', 'premium_export', { format: 'csv' }],
  ['slack message', 'slack_post_message', { channel: '#ops', text: 'Deployed' }],
];
const TWENTY_STEPS: ModelAction[] = [
  ...LOADS.flatMap(([query, name, args]): ModelAction[] => [
    { toolName: 'search_tools', input: { query } },
    { toolName: 'load_tool', input: { toolName: name } },
    callTool(name, args),
  ]),
  callTool('transfer_funds', { iban: 'DE00', amount: 1 }),
  callTool('slack_post_message', { channel: '#ops' }),
  callTool('get_weather', { city: 'Porto' }),
  callTool('send_email', { to: 'bob@example.com', subject: 'Re', body: 'Ok' }),
  { text: 'Done.' },
];

describe("ToolSearchProcessor with expose: 'proxy'", () => {
  it('offers the same tools at every step of a 20-step conversation with 5 loads, each request extending the last', async () => {
    const log: ExecutionLog = { runs: [] };
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      expose: 'proxy',
      filter: ({ toolName, phase }) => !(phase === 'active' && toolName === 'premium_export'),
    });
    const run = await runAgent({
      processor,
      script: (turn) => TWENTY_STEPS[turn.call]!,
      input: 'Do the errands.',
      context: { mastra__threadId: 'thread-1' },
      maxSteps: 25,
    });
    expect(run.text).toBe('Done.');
    expect(run.turns).toHaveLength(20);
    for (const turn of run.turns) expect(turn.toolNames).toEqual(PROXY_META);
    expectStablePrefix(run.requests, 'Mastra agent');
    // Each allowed call ran once, the one never searched for too (call_tool loads it); the
    // denied and schema-breaking ones never.
    expect(log.runs).toEqual([
      { toolName: 'get_weather', input: { city: 'Lisbon' } },
      { toolName: 'send_email', input: { to: 'ada@example.com', subject: 'Hi', body: 'Hello' } },
      { toolName: 'github_create_issue', input: { repo: 'acme/app', title: 'Crash' } },
      { toolName: 'slack_post_message', input: { channel: '#ops', text: 'Deployed' } },
      { toolName: 'transfer_funds', input: { iban: 'DE00', amount: 1 } },
      { toolName: 'get_weather', input: { city: 'Porto' } },
      { toolName: 'send_email', input: { to: 'bob@example.com', subject: 'Re', body: 'Ok' } },
    ]);
    const results = run.turns.at(-1)!.toolResults;
    const load = results.find((result) => result.toolName === 'load_tool');
    expect(load?.output).toMatchObject({
      success: true,
      tools: [{ name: 'get_weather', inputSchema: { properties: { city: { type: 'string' } } } }],
    });
    const calls = results.filter((result) => result.toolName === 'call_tool');
    expect(calls[0]!.output).toEqual({ city: 'Lisbon', forecast: 'sunny, 24°C' });
    const refused = calls.filter(
      (result) => (result.output as { success?: unknown }).success === false,
    );
    expect(refused).toHaveLength(2);
    expect(refused.map((result) => (result.output as { errors?: unknown }).errors)).toContainEqual([
      { path: '', message: expect.stringContaining('"text"') },
    ]);
  });

  it('keeps loads in the conversation under context storage', async () => {
    const log: ExecutionLog = { runs: [] };
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      expose: 'proxy',
      storage: 'context',
    });
    const first = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'get_weather' } }
          : { text: 'Loaded.' },
      input: 'Load the weather tool.',
    });
    const second = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0 ? callTool('get_weather', { city: 'Rome' }) : { text: 'ok' },
      input: [...first.messages, { role: 'user', content: 'Weather in Rome?' }],
    });
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Rome' } }]);
    expect(JSON.stringify(second.requests[0]!.tools)).toBe(
      JSON.stringify(first.requests[0]!.tools),
    );
  });
});
