import type { ProcessInputStepArgs } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { lastResult, runAgent } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';
import type { AnyMastraTool, DeferredTool } from './tool-search-processor-options';

/**
 * A connector's tools per user, as an MCP client with the user's token would list them: the
 * metadata is cheap, the real tool (here: one that reports whose mailbox it read) is built on
 * resolve. Every listing and resolve is recorded.
 */
function mailConnector(log: ExecutionLog) {
  const listings: string[] = [];
  const resolves: string[] = [];
  const revoked = new Set<string>();
  const deferredTools = ({ requestContext }: { requestContext?: RequestContext | undefined }) => {
    const user = String(requestContext?.get('user' as never) ?? 'nobody');
    listings.push(user);
    const tool = (id: string, description: string): DeferredTool => ({
      id,
      description,
      resolve: async () => {
        resolves.push(`${id}:${user}`);
        if (revoked.has(user)) throw new Error(`the mail token of ${user} was revoked`);
        return createTool({
          id,
          description,
          inputSchema: z.object({ folder: z.string() }),
          execute: async (input: { folder: string }) => {
            log.runs.push({ toolName: id, input });
            return { mailbox: user, folder: input.folder };
          },
        }) as AnyMastraTool;
      },
    });
    return {
      mail_read_inbox: tool('mail_read_inbox', 'Read the messages in a mailbox folder'),
      mail_archive: tool('mail_archive', 'Archive old messages of a mailbox'),
    };
  };
  return { deferredTools, listings, resolves, revoked };
}

/** A request context holding these values. */
function contextOf(values: Record<string, unknown>): RequestContext {
  const context = new RequestContext();
  for (const [key, value] of Object.entries(values)) context.set(key as never, value as never);
  return context;
}

const stepArgs = (requestContext: RequestContext) =>
  ({
    requestContext,
    tools: {},
    messageList: { addSystem: () => undefined },
  }) as unknown as ProcessInputStepArgs;

describe('ToolSearchProcessor({ deferredTools })', () => {
  it('searches connector metadata, resolves the loaded tool for the caller, and runs it', async () => {
    const log: ExecutionLog = { runs: [] };
    const connector = mailConnector(log);
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      deferredTools: connector.deferredTools,
    });
    let chosen: string | undefined;
    const run = await runAgent({
      processor,
      input: 'what is in my inbox?',
      context: { user: 'alice', mastra__threadId: 'alice-thread' },
      script: (turn) => {
        const last = lastResult(turn);
        if (!last) return { toolName: 'search_tools', input: { query: 'mailbox inbox messages' } };
        if (last.toolName === 'search_tools') {
          chosen = (last.output as { results: { name: string }[] }).results[0]?.name;
          return { toolName: 'load_tool', input: { toolName: chosen } };
        }
        if (last.toolName === 'load_tool') return { toolName: chosen!, input: { folder: 'inbox' } };
        return { text: JSON.stringify(last.output) };
      },
    });
    expect(chosen).toBe('mail_read_inbox');
    expect(run.turns[2]!.toolNames).toEqual(['search_tools', 'load_tool', 'mail_read_inbox']);
    expect(lastResult(run.turns[3]!)?.output).toEqual({ mailbox: 'alice', folder: 'inbox' });
    // Only the loaded tool was ever resolved, and only for alice.
    expect(new Set(connector.resolves)).toEqual(new Set(['mail_read_inbox:alice']));
    expect(log.runs).toEqual([{ toolName: 'mail_read_inbox', input: { folder: 'inbox' } }]);
  });

  it('resolves a loaded tool anew for each request on the thread, with that request’s user', async () => {
    const log: ExecutionLog = { runs: [] };
    const connector = mailConnector(log);
    const processor = new ToolSearchProcessor({
      tools: {},
      deferredTools: connector.deferredTools,
    });
    await runAgent({
      processor,
      input: 'load',
      context: { user: 'alice', mastra__threadId: 'team' },
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'mail_read_inbox' } }
          : { text: 'loaded' },
    });
    const bob = await runAgent({
      processor,
      input: 'read',
      context: { user: 'bob', mastra__threadId: 'team' },
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'mail_read_inbox', input: { folder: 'inbox' } }
          : { text: 'done' },
    });
    expect(lastResult(bob.turns[1]!)?.output).toEqual({ mailbox: 'bob', folder: 'inbox' });
  });

  it('refuses to run a resolved tool under another request context', async () => {
    const log: ExecutionLog = { runs: [] };
    const connector = mailConnector(log);
    const processor = new ToolSearchProcessor({
      tools: {},
      deferredTools: connector.deferredTools,
    });
    const alice = contextOf({ user: 'alice' });
    const args = stepArgs(alice);
    const first = await processor.processInputStep(args);
    await (first.tools!.load_tool as AnyMastraTool).execute!(
      { toolName: 'mail_read_inbox' },
      {} as never,
    );
    const loaded = (await processor.processInputStep(args)).tools!.mail_read_inbox as AnyMastraTool;
    // Another request of the same user: equal values, another context.
    const other = contextOf({ user: 'alice' });
    await expect(
      loaded.execute!({ folder: 'inbox' }, { requestContext: other } as never),
    ).rejects.toThrow('request identity changed');
    const copy = contextOf(JSON.parse(JSON.stringify(alice.all)));
    await expect(
      loaded.execute!({ folder: 'inbox' }, { requestContext: copy } as never),
    ).rejects.toThrow('request identity changed');
    expect(log.runs).toEqual([]);
    await expect(
      loaded.execute!({ folder: 'inbox' }, { requestContext: alice } as never),
    ).resolves.toEqual({ mailbox: 'alice', folder: 'inbox' });
  });

  it('does not list connector tools for a step whose loaded tools are all static', async () => {
    const log: ExecutionLog = { runs: [] };
    const connector = mailConnector(log);
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      deferredTools: connector.deferredTools,
    });
    const run = await runAgent({
      processor,
      input: 'weather',
      context: { user: 'alice', mastra__threadId: 'static-only' },
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'get_weather' } }
          : turn.call === 1
            ? { toolName: 'get_weather', input: { city: 'Oslo' } }
            : { text: 'sunny' },
    });
    expect(run.turns[1]!.toolNames).toEqual(['search_tools', 'load_tool', 'get_weather']);
    expect(connector.listings).toEqual([]);
  });

  it('withholds a loaded connector tool once its credentials are revoked, and says why on load', async () => {
    const log: ExecutionLog = { runs: [] };
    const connector = mailConnector(log);
    const processor = new ToolSearchProcessor({
      tools: {},
      deferredTools: connector.deferredTools,
    });
    const run = await runAgent({
      processor,
      input: 'read my mail',
      context: { user: 'carol', mastra__threadId: 'revoked' },
      script: (turn) => {
        if (turn.call === 0)
          return { toolName: 'load_tool', input: { toolName: 'mail_read_inbox' } };
        if (turn.call === 1) {
          connector.revoked.add('carol');
          return { text: 'loaded' };
        }
        return { text: 'done' };
      },
    });
    expect(run.turns[1]!.toolNames).toContain('mail_read_inbox');
    const next = await runAgent({
      processor,
      input: 'read it again',
      context: { user: 'carol', mastra__threadId: 'revoked' },
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolName: 'mail_read_inbox' } }
          : { text: 'done' },
    });
    expect(next.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool']);
    expect(JSON.stringify(lastResult(next.turns[1]!)?.output)).toContain(
      'the mail token of carol was revoked',
    );
  });

  it('never shows a tool deferredFilter denies, and never resolves it', async () => {
    const log: ExecutionLog = { runs: [] };
    const connector = mailConnector(log);
    const processor = new ToolSearchProcessor({
      tools: {},
      deferredTools: connector.deferredTools,
      deferredFilter: ({ toolName, requestContext }) =>
        toolName !== 'mail_archive' || requestContext?.get('user' as never) === 'admin',
    });
    const run = await runAgent({
      processor,
      input: 'archive',
      context: { user: 'dave' },
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'search_tools', input: { query: 'archive old mailbox messages' } }
          : turn.call === 1
            ? { toolName: 'load_tool', input: { toolName: 'mail_archive' } }
            : { text: 'done' },
    });
    const found = lastResult(run.turns[1]!)?.output as { results: { name: string }[] };
    expect(found.results.map((result) => result.name)).toEqual(['mail_read_inbox']);
    expect(lastResult(run.turns[2]!)?.output).toMatchObject({ success: false });
    expect(connector.resolves).toEqual([]);
  });
});
