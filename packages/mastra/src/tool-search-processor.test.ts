import { MockMemory } from '@mastra/core/memory';
import type { Processor } from '@mastra/core/processors';
import { ToolSearchProcessor as MastraToolSearchProcessor } from '@mastra/core/processors';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { lastResult, runAgent, searchLoadCall } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';
import type { ToolSearchProcessorOptions } from './tool-search-processor-options';

/** The state methods both processors share. */
type StatefulProcessor = Processor & {
  clearState(threadId?: string): unknown;
  clearAllState(): void;
  getStateStats(): { threadCount: number; oldestAccessTime: number | null };
  cleanupNow(): number;
};

/** Each scenario runs against ours and Mastra's own, to show the behaviour matches. */
const implementations: {
  label: string;
  create: (options: ToolSearchProcessorOptions) => StatefulProcessor;
}[] = [
  { label: 'tool-search-mastra', create: (options) => new ToolSearchProcessor(options) },
  {
    label: "Mastra's built-in ToolSearchProcessor",
    create: (options) =>
      new MastraToolSearchProcessor(
        options as ConstructorParameters<typeof MastraToolSearchProcessor>[0],
      ),
  },
];

const newLog = (): ExecutionLog => ({ runs: [] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough that a busy machine never leaves a thread idle this long inside one agent run. */
const IDLE_TTL = 500;

describe.each(implementations)('$label', ({ create }) => {
  it('searches, loads, calls the loaded tool and answers', async () => {
    const log = newLog();
    const processor = create({ tools: createCatalog(log) });
    const run = await runAgent({
      processor,
      script: searchLoadCall('weather forecast', { city: 'Lisbon' }),
      input: 'What is the weather in Lisbon?',
    });
    expect(run.turns.map((turn) => turn.toolNames)).toEqual([
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool'],
      ['search_tools', 'load_tool', 'get_weather'],
      ['search_tools', 'load_tool', 'get_weather'],
    ]);
    const [search, load] = run.turns[3]!.toolResults;
    expect(search!.output).toEqual({
      results: expect.arrayContaining([
        { name: 'get_weather', description: expect.any(String), score: expect.any(Number) },
      ]),
      message: expect.any(String),
    });
    expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe(
      'get_weather',
    );
    expect(load!.output).toMatchObject({
      success: true,
      message: expect.stringContaining('loaded successfully'),
      toolName: 'get_weather',
    });
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Lisbon' } }]);
    expect(run.text).toContain('sunny');
  });

  it('answers load_tool with toolNames in the multi-tool shape', async () => {
    const processor = create({ tools: createCatalog(newLog()) });
    const run = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolNames: ['send_email', 'no_such_tool'] } }
          : { text: 'ok' },
      input: 'Load some tools',
    });
    expect(lastResult(run.turns[1]!)?.output).toEqual({
      success: false,
      message: expect.any(String),
      loadedCount: 1,
      loaded: ['send_email'],
      notFound: ['no_such_tool'],
    });
    expect(run.turns[1]!.toolNames).toContain('send_email');
  });

  it('under autoLoad, offers no load_tool and activates what search returns', async () => {
    const log = newLog();
    const processor = create({ tools: createCatalog(log), search: { topK: 2, autoLoad: true } });
    const run = await runAgent({
      processor,
      script: searchLoadCall('weather forecast', { city: 'Porto' }),
      input: 'Weather in Porto?',
    });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools']);
    expect(run.turns[1]!.toolNames).toContain('get_weather');
    expect(log.runs.map((entry) => entry.toolName)).toEqual(['get_weather']);
  });

  it('refuses a tool the model calls without loading it', async () => {
    const log = newLog();
    const processor = create({ tools: createCatalog(log) });
    const run = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'send_email', input: { to: 'a@b.c', subject: 'hi', body: 'hi' } }
          : { text: 'could not' },
      input: 'Email a@b.c',
    });
    expect(log.runs).toEqual([]);
    expect(JSON.stringify(lastResult(run.turns[1]!)?.output)).toMatch(/not found/i);
  });

  it('keeps loaded tools per thread in memory, and forgets them with clearState', async () => {
    const processor = create({ tools: createCatalog(newLog()) });
    const loadWeather = { toolName: 'load_tool', input: { toolName: 'get_weather' } } as const;
    await runAgent({
      processor,
      script: (turn) => (turn.call === 0 ? loadWeather : { text: 'loaded' }),
      input: 'load the weather tool',
      context: { mastra__threadId: 'thread-a' },
    });
    const answer = () => ({ text: 'hi' });
    const sameThread = await runAgent({
      processor,
      script: answer,
      input: 'hello again',
      context: { mastra__threadId: 'thread-a' },
    });
    const otherThread = await runAgent({
      processor,
      script: answer,
      input: 'hello',
      context: { mastra__threadId: 'thread-b' },
    });
    expect(sameThread.turns[0]!.toolNames).toContain('get_weather');
    expect(otherThread.turns[0]!.toolNames).not.toContain('get_weather');
    expect(processor.getStateStats().threadCount).toBeGreaterThanOrEqual(1);
    await processor.clearState('thread-a');
    const cleared = await runAgent({
      processor,
      script: answer,
      input: 'hello',
      context: { mastra__threadId: 'thread-a' },
    });
    expect(cleared.turns[0]!.toolNames).not.toContain('get_weather');
  });

  it('takes the thread from the agent memory', async () => {
    const processor = create({ tools: createCatalog(newLog()) });
    const memory = new MockMemory();
    await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'get_weather' } }
          : { text: 'loaded' },
      input: 'load the weather tool',
      memory,
      memoryOptions: { thread: 'memory-thread', resource: 'user-1' },
    });
    const next = await runAgent({
      processor,
      script: () => ({ text: 'hi' }),
      input: 'hello again',
      memory,
      memoryOptions: { thread: 'memory-thread', resource: 'user-1' },
    });
    const elsewhere = await runAgent({
      processor,
      script: () => ({ text: 'hi' }),
      input: 'hello',
      memory,
      memoryOptions: { thread: 'other-thread', resource: 'user-1' },
    });
    expect(next.turns[0]!.toolNames).toContain('get_weather');
    expect(elsewhere.turns[0]!.toolNames).not.toContain('get_weather');
  });

  it("under storage 'context', carries loads across generate calls in the resent messages", async () => {
    const log = newLog();
    const processor = create({ tools: createCatalog(log), storage: 'context' });
    const context = { mastra__threadId: 'context-thread' };
    const first = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'get_weather' } }
          : { text: 'loaded' },
      input: 'load the weather tool',
      context,
    });
    const second = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'get_weather', input: { city: 'Faro' } }
          : { text: 'it is sunny' },
      input: [...first.messages, { role: 'user', content: 'weather in Faro?' }],
      context,
    });
    expect(second.turns[0]!.toolNames).toContain('get_weather');
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Faro' } }]);

    const trimmed = await runAgent({
      processor,
      script: () => ({ text: 'hi' }),
      input: [{ role: 'user', content: 'a new conversation without the load' }],
      context: { mastra__threadId: 'fresh-thread' },
    });
    expect(trimmed.turns[0]!.toolNames).not.toContain('get_weather');
  });

  it('applies the filter in its search, load and active phases', async () => {
    const phases = new Set<string>();
    let plan = 'free';
    const processor = create({
      tools: createCatalog(newLog()),
      filter: ({ toolName, phase }) => {
        phases.add(phase);
        if (phase === 'search') return toolName !== 'slack_post_message';
        if (phase === 'load') return toolName !== 'premium_export';
        return plan === 'pro' || toolName !== 'send_email';
      },
    });
    const run = await runAgent({
      processor,
      script: (turn) => {
        if (turn.call === 0) return { toolName: 'search_tools', input: { query: 'slack message' } };
        if (turn.call === 1)
          return { toolName: 'load_tool', input: { toolNames: ['premium_export', 'send_email'] } };
        return { text: 'done' };
      },
      input: 'post to slack and export',
      context: { mastra__threadId: 'filter-thread' },
    });
    const [search, load] = run.turns[2]!.toolResults;
    const names = (search!.output as { results: { name: string }[] }).results.map((r) => r.name);
    expect(names).not.toContain('slack_post_message');
    expect(load!.output).toMatchObject({ loaded: ['send_email'], notFound: ['premium_export'] });
    // send_email is loaded but the `active` phase hides it on the free plan.
    expect(run.turns[2]!.toolNames).not.toContain('send_email');
    plan = 'pro';
    const later = await runAgent({
      processor,
      script: () => ({ text: 'hi' }),
      input: 'hello',
      context: { mastra__threadId: 'filter-thread' },
    });
    expect(later.turns[0]!.toolNames).toContain('send_email');
    expect([...phases].sort()).toEqual(['active', 'load', 'search']);
  });

  it('with includeResolvedTools, gives each caller its own instance of a resolved tool', async () => {
    const processor = create({ tools: createCatalog(newLog()), includeResolvedTools: true });
    const resolveTools = ({
      requestContext,
    }: {
      requestContext: { get(key: string): unknown };
    }) => {
      const user = String(requestContext.get('user'));
      return {
        account_balance: createTool({
          id: 'account_balance',
          description: 'Read the balance of the signed-in bank account',
          inputSchema: z.object({}),
          execute: async () => ({ user, balance: user === 'alice' ? 100 : 5 }),
        }),
      };
    };
    const runFor = (user: string) =>
      runAgent({
        processor,
        tools: resolveTools as never,
        script: searchLoadCall('account balance', {}),
        input: 'What is my balance?',
        context: { user, mastra__threadId: `thread-${user}` },
      });
    const [alice, bob] = await Promise.all([runFor('alice'), runFor('bob')]);
    for (const [run, user, balance] of [
      [alice, 'alice', 100],
      [bob, 'bob', 5],
    ] as const) {
      expect(run.turns[0]!.toolNames).not.toContain('account_balance');
      expect(run.turns[2]!.toolNames).toContain('account_balance');
      expect(lastResult(run.turns[3]!)?.output).toEqual({ user, balance });
    }
  });

  it('forgets an idle thread after ttl', async () => {
    const processor = create({ tools: createCatalog(newLog()), ttl: IDLE_TTL });
    await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'get_weather' } }
          : { text: 'loaded' },
      input: 'load the weather tool',
      context: { mastra__threadId: 'ttl-thread' },
    });
    expect(processor.getStateStats().threadCount).toBe(1);
    await sleep(IDLE_TTL + 100);
    expect(processor.cleanupNow()).toBe(1);
    expect(processor.getStateStats()).toEqual({ threadCount: 0, oldestAccessTime: null });
    const later = await runAgent({
      processor,
      script: () => ({ text: 'hi' }),
      input: 'hello',
      context: { mastra__threadId: 'ttl-thread' },
    });
    expect(later.turns[0]!.toolNames).not.toContain('get_weather');
    processor.clearAllState();
  });
});
