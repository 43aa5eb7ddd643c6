import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { implementations } from './testing/implementations';
import { runAgent } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';
import type { AnyMastraTool } from './tool-search-processor-options';

const agentTool = (id: string, description: string, log?: ExecutionLog) =>
  createTool({
    id,
    description,
    inputSchema: z.object({}).passthrough(),
    execute: async (input: unknown) => {
      log?.runs.push({ toolName: `agent:${id}`, input });
      return { from: 'agent' };
    },
  }) as AnyMastraTool;

describe.each(implementations)(
  '$label: tools of the agent and of the catalog',
  ({ create, itUnreleased }) => {
    itUnreleased('refuses an agent tool that takes a meta-tool’s name', async () => {
      const processor = create({ tools: createCatalog({ runs: [] }) });
      await expect(
        runAgent({
          processor,
          tools: { search_tools: agentTool('my_search', 'Search my own index') },
          script: () => ({ text: 'hi' }),
          input: 'hello',
        }),
      ).rejects.toThrow(/already defines that name/);
    });

    itUnreleased(
      'refuses to load a catalog tool over a different agent tool of the same name',
      async () => {
        const log: ExecutionLog = { runs: [] };
        const processor = create({ tools: createCatalog(log) });
        await expect(
          runAgent({
            processor,
            tools: { send_email: agentTool('send_email', 'Send mail through the CRM', log) },
            script: (turn) =>
              turn.call === 0
                ? { toolName: 'load_tool', input: { toolName: 'send_email' } }
                : { toolName: 'send_email', input: { to: 'a@b.c', subject: 's', body: 'b' } },
            input: 'mail a@b.c',
          }),
        ).rejects.toThrow(/conflicts with an always-available input tool/);
        expect(log.runs).toEqual([]);
      },
    );

    it('offers a tool given to both the agent and the catalog once', async () => {
      const log: ExecutionLog = { runs: [] };
      const catalog = createCatalog(log);
      const processor = create({ tools: catalog });
      const run = await runAgent({
        processor,
        tools: { send_email: catalog.send_email! },
        script: (turn) =>
          [
            { toolName: 'load_tool', input: { toolName: 'send_email' } },
            { toolName: 'send_email', input: { to: 'a@b.c', subject: 's', body: 'b' } },
          ][turn.call] ?? { text: 'sent' },
        input: 'mail a@b.c',
      });
      expect(run.turns[1]!.toolNames.filter((name) => name === 'send_email')).toHaveLength(1);
      expect(log.runs.map((entry) => entry.toolName)).toEqual(['send_email']);
    });

    it('brings a tool loaded in an earlier request back once, though the agent re-adds it', async () => {
      const processor = create({ tools: createCatalog({ runs: [] }) });
      const context = { mastra__threadId: 'reloaded' };
      await runAgent({
        processor,
        script: (turn) =>
          turn.call === 0
            ? { toolName: 'load_tool', input: { toolName: 'send_email' } }
            : { text: 'loaded' },
        input: 'load the mail tool',
        context,
      });
      const next = await runAgent({
        processor,
        script: () => ({ text: 'hi' }),
        input: 'hello again',
        context,
      });
      expect(next.turns[0]!.toolNames.filter((name) => name === 'send_email')).toHaveLength(1);
    });
  },
);

describe('tool-search-mastra: tools an agent adds back from an earlier request', () => {
  it('keeps them in load order after the agent’s own, and drops them once unloaded', async () => {
    const processor = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      unloadTool: true,
    });
    const context = { mastra__threadId: 'added-back' };
    const own = { notes: agentTool('notes', 'Read my notes') };
    await runAgent({
      processor,
      tools: own,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'load_tool', input: { toolNames: ['send_email', 'get_weather'] } }
          : { text: 'loaded' },
      input: 'load two tools',
      context,
    });
    const next = await runAgent({
      processor,
      tools: own,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'unload_tool', input: { toolNames: ['send_email'] } }
          : { text: 'unloaded' },
      input: 'drop the mail tool',
      context,
    });
    const meta = ['search_tools', 'load_tool', 'unload_tool'];
    expect(next.turns[0]!.toolNames).toEqual([...meta, 'notes', 'send_email', 'get_weather']);
    expect(next.turns[1]!.toolNames).toEqual([...meta, 'notes', 'get_weather']);
  });
});
