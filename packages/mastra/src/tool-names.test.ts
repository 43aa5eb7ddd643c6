import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { implementations } from './testing/implementations';
import { lastResult, runAgent } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';
import type { AnyMastraTool, ToolSearchFilterArgs } from './tool-search-processor-options';

/** A tool whose id differs from the key it is listed under, as in `{ weather: getWeatherTool }`. */
function weatherTool(log: ExecutionLog, id = 'get-weather'): AnyMastraTool {
  return createTool({
    id,
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async (input: { city: string }) => {
      log.runs.push({ toolName: id, input });
      return { city: input.city, sky: 'clear' };
    },
  }) as AnyMastraTool;
}

const plainTool = (id: string) =>
  createTool({
    id,
    description: `The ${id} tool`,
    inputSchema: z.object({}),
    execute: async () => ({}),
  }) as AnyMastraTool;

describe.each(implementations)(
  '$label: a tool listed under a key other than its id',
  ({ create, itUnreleased }) => {
    it('loads it by its key, runs it under the name the load answered, and asks the filter with its id', async () => {
      const log: ExecutionLog = { runs: [] };
      const asked: ToolSearchFilterArgs[] = [];
      const tool = weatherTool(log);
      const processor = create({
        tools: { weather: tool, send_email: plainTool('send_email') },
        filter: (args) => {
          asked.push(args);
          return true;
        },
      });
      const run = await runAgent({
        processor,
        script: (turn) => {
          const last = lastResult(turn);
          if (turn.call === 0) return { toolName: 'load_tool', input: { toolName: 'weather' } };
          if (last?.toolName === 'load_tool') {
            const { toolName } = last.output as { toolName: string };
            return { toolName, input: { city: 'Oslo' } };
          }
          return { text: 'clear in Oslo' };
        },
        input: 'Weather in Oslo?',
        context: { mastra__threadId: 'by-key' },
      });
      expect(lastResult(run.turns[1]!)?.output).toMatchObject({ success: true });
      expect(log.runs).toEqual([{ toolName: 'get-weather', input: { city: 'Oslo' } }]);
      const weatherAsks = asked.filter((args) => args.tool === tool);
      expect(weatherAsks.map((args) => args.phase)).toEqual(
        expect.arrayContaining(['load', 'active']),
      );
      expect(new Set(weatherAsks.map((args) => args.toolName))).toEqual(new Set(['get-weather']));
    });

    it('shows its id in search results and loads it by that id', async () => {
      const processor = create({
        tools: { weather: weatherTool({ runs: [] }), send_email: plainTool('send_email') },
      });
      const run = await runAgent({
        processor,
        script: (turn) => {
          const last = lastResult(turn);
          if (!last) return { toolName: 'search_tools', input: { query: 'weather city' } };
          if (last.toolName === 'search_tools') {
            const [best] = (last.output as { results: { name: string }[] }).results;
            return { toolName: 'load_tool', input: { toolName: best!.name } };
          }
          return { text: 'loaded' };
        },
        input: 'Find a weather tool',
      });
      const [search, load] = run.turns[2]!.toolResults;
      expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe(
        'get-weather',
      );
      expect(load!.output).toMatchObject({ success: true, toolName: 'get-weather' });
      expect(run.turns[2]!.toolNames).toContain('get-weather');
    });

    it('suggests its key for a near miss, not its id', async () => {
      const processor = create({
        tools: { weather: weatherTool({ runs: [] }), send_email: plainTool('send_email') },
      });
      const run = await runAgent({
        processor,
        script: (turn) =>
          turn.call === 0
            ? { toolName: 'load_tool', input: { toolName: 'weath' } }
            : { text: 'not found' },
        input: 'Load the weather tool',
      });
      const output = lastResult(run.turns[1]!)?.output as { success: boolean; message: string };
      expect(output.success).toBe(false);
      expect(output.message).toContain('Did you mean: weather');
      expect(output.message).not.toContain('get-weather');
    });

    itUnreleased('rejects a key that is another tool’s id, naming both tools', () => {
      expect(() =>
        create({
          tools: {
            weather: weatherTool({ runs: [] }, 'public_weather'),
            private_weather: weatherTool({ runs: [] }, 'weather'),
          },
        }),
      ).toThrow(/"weather".*"public_weather".*"private_weather".*must resolve unambiguously/);
    });

    itUnreleased('rejects two tools with one id, naming both keys', () => {
      expect(() =>
        create({ tools: { first: plainTool('lookup'), second: plainTool('lookup') } }),
      ).toThrow(/requires unique tool ids.*"first" and "second"/);
    });

    itUnreleased('rejects the meta-tools’ names as keys and as ids', () => {
      expect(() => create({ tools: { search_tools: plainTool('custom_search') } })).toThrow(
        /reserved meta-tool names/,
      );
      expect(() => create({ tools: { custom_load: plainTool('load_tool') } })).toThrow(
        /reserved meta-tool names/,
      );
    });
  },
);

describe('tool-search-mastra: keys and ids', () => {
  it('offers a tool loaded by its key and by its id once, under its id', async () => {
    const processor = new ToolSearchProcessor({
      tools: { weather: weatherTool({ runs: [] }), send_email: plainTool('send_email') },
    });
    const run = await runAgent({
      processor,
      script: (turn) =>
        [
          { toolName: 'load_tool', input: { toolName: 'weather' } },
          { toolName: 'load_tool', input: { toolNames: ['get-weather', 'weather'] } },
        ][turn.call] ?? { text: 'done' },
      input: 'Load the weather tool twice',
    });
    expect(lastResult(run.turns[1]!)?.output).toMatchObject({
      toolName: 'get-weather',
      loaded: ['get-weather'],
    });
    expect(lastResult(run.turns[2]!)?.output).toMatchObject({
      success: true,
      alreadyLoaded: ['get-weather'],
      loadedCount: 0,
    });
    expect(run.turns[2]!.toolNames).toEqual(['search_tools', 'load_tool', 'get-weather']);
  });

  it('lets the same tool be listed under two keys, as one tool', async () => {
    const tool = weatherTool({ runs: [] });
    const processor = new ToolSearchProcessor({ tools: { weather: tool, forecast: tool } });
    const run = await runAgent({
      processor,
      script: (turn) =>
        [
          { toolName: 'search_tools', input: { query: 'weather' } },
          { toolName: 'load_tool', input: { toolNames: ['forecast', 'weather'] } },
        ][turn.call] ?? { text: 'done' },
      input: 'Load the weather tool',
    });
    const [search, load] = run.turns[2]!.toolResults;
    expect((search!.output as { results: { name: string }[] }).results).toHaveLength(1);
    expect(load!.output).toMatchObject({ success: true, loaded: ['get-weather'] });
  });

  it('pins and unloads a tool by its key', async () => {
    const processor = new ToolSearchProcessor({
      tools: { weather: weatherTool({ runs: [] }), ...createCatalog({ runs: [] }) },
      alwaysLoaded: ['weather'],
      unloadTool: true,
    });
    const run = await runAgent({
      processor,
      script: (turn) =>
        [
          { toolName: 'load_tool', input: { toolName: 'send_email' } },
          { toolName: 'unload_tool', input: { toolNames: ['send_email'] } },
        ][turn.call] ?? { text: 'done' },
      input: 'Work',
    });
    expect(run.turns[0]!.toolNames).toEqual([
      'search_tools',
      'load_tool',
      'unload_tool',
      'get-weather',
    ]);
    expect(run.turns[1]!.toolNames).toContain('send_email');
    expect(run.turns[2]!.toolNames).not.toContain('send_email');
  });

  it("replays a load written with the key under storage 'context' as the tool's id", async () => {
    const processor = new ToolSearchProcessor({
      tools: { weather: weatherTool({ runs: [] }), send_email: plainTool('send_email') },
      storage: 'context',
    });
    const run = await runAgent({
      processor,
      script: () => ({ text: 'hi' }),
      input: [
        { role: 'user', content: 'load the weather tool' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: {} }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'load_tool',
              output: { type: 'json', value: { success: true, message: '', loaded: ['weather'] } },
            },
          ],
        },
        { role: 'user', content: 'and now?' },
      ],
      context: { mastra__threadId: 'replay-by-key' },
    });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool', 'get-weather']);
  });
});
