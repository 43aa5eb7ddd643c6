import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog } from './testing/catalog';
import { implementations } from './testing/implementations';
import { lastResult, runAgent } from './testing/run-agent';
import type { ModelAction } from './testing/scripted-model';
import type { AnyMastraTool } from './tool-search-processor-options';

/** The outputs of the meta-tool calls a script makes, one per call, through a real agent. */
async function outputsOf(
  processor: Parameters<typeof runAgent>[0]['processor'],
  calls: ModelAction[],
): Promise<Record<string, unknown>[]> {
  const run = await runAgent({
    processor,
    script: (turn) => calls[turn.call] ?? { text: 'done' },
    input: 'work',
    context: { mastra__threadId: 'results' },
  });
  return run.turns
    .slice(1, calls.length + 1)
    .map((turn) => lastResult(turn)?.output as Record<string, unknown>);
}

describe.each(implementations)(
  '$label: the results callers match on',
  ({ create, itUnreleased }) => {
    it('says "No tools found" when nothing matches', async () => {
      const [search] = await outputsOf(create({ tools: createCatalog({ runs: [] }) }), [
        { toolName: 'search_tools', input: { query: 'zzyzx quasar' } },
      ]);
      expect(search).toMatchObject({
        results: [],
        message: expect.stringContaining('No tools found'),
      });
    });

    it('says "loaded successfully", then "already loaded"', async () => {
      const load = { toolName: 'load_tool', input: { toolName: 'send_email' } };
      const [first, second] = await outputsOf(create({ tools: createCatalog({ runs: [] }) }), [
        load,
        load,
      ]);
      expect(first).toMatchObject({
        success: true,
        toolName: 'send_email',
        message: expect.stringContaining('loaded successfully'),
      });
      expect(second).toMatchObject({
        success: true,
        toolName: 'send_email',
        message: expect.stringContaining('already loaded'),
      });
    });

    itUnreleased('lists the tool in `loaded` when loading one by toolName', async () => {
      const [first] = await outputsOf(create({ tools: createCatalog({ runs: [] }) }), [
        { toolName: 'load_tool', input: { toolName: 'send_email' } },
      ]);
      expect(first).toMatchObject({ loaded: ['send_email'] });
    });

    it('answers an empty toolNames list with Mastra’s sentence', async () => {
      const [load] = await outputsOf(create({ tools: createCatalog({ runs: [] }) }), [
        { toolName: 'load_tool', input: { toolNames: [] } },
      ]);
      expect(load).toEqual({ success: false, message: 'toolNames array must not be empty.' });
    });

    it('cuts result descriptions to 150 characters', async () => {
      const wordy = createTool({
        id: 'archive_mailbox',
        description: `Archive a mailbox. ${'It keeps every message, folder and label intact. '.repeat(8)}`,
        inputSchema: z.object({}),
        execute: async () => ({}),
      }) as AnyMastraTool;
      const [search] = await outputsOf(create({ tools: { archive_mailbox: wordy } }), [
        { toolName: 'search_tools', input: { query: 'archive mailbox' } },
      ]);
      const [result] = search!.results as { description: string }[];
      expect(result!.description.length).toBeLessThanOrEqual(150);
      expect(result!.description).toMatch(/^Archive a mailbox\. It keeps/);
    });

    it('under autoLoad, says what it loaded, then that it was already loaded', async () => {
      const search = { toolName: 'search_tools', input: { query: 'weather forecast city' } };
      const [first, second] = await outputsOf(
        create({ tools: createCatalog({ runs: [] }), search: { autoLoad: true, topK: 1 } }),
        [search, search],
      );
      expect(first!.message).toMatch(/loaded/);
      expect(second!.message).toMatch(/already loaded/);
    });

    itUnreleased('under autoLoad, returns only tools it may load, with a receipt', async () => {
      const processor = create({
        tools: createCatalog({ runs: [] }),
        search: { autoLoad: true, topK: 2 },
        filter: ({ toolName, phase }) => phase !== 'load' || toolName !== 'get_weather',
      });
      const [denied, allowed] = await outputsOf(processor, [
        { toolName: 'search_tools', input: { query: 'current weather' } },
        { toolName: 'search_tools', input: { query: 'send an email' } },
      ]);
      expect(denied).toMatchObject({
        results: [],
        message: expect.stringContaining('No tools available to load'),
      });
      expect(denied!.activation).toBeUndefined();
      expect(allowed!.activation).toEqual({
        type: 'tool-search-auto-load',
        version: 1,
        loaded: (allowed!.results as { name: string }[]).map((result) => result.name),
      });
    });
  },
);
