import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { runAgent } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';
import type { AnyMastraTool } from './tool-search-processor-options';

const PROXY_META = ['search_tools', 'load_tool', 'call_tool'];

/** The test catalog plus `count` reports of a few dozen tokens each: heavy enough to search. */
function largeCatalog(log: ExecutionLog, count: number): Record<string, AnyMastraTool> {
  const reports: Record<string, AnyMastraTool> = {};
  for (let index = 0; index < count; index++) {
    const id = `inventory_report_${index}`;
    reports[id] = createTool({
      id,
      description: `Inventory report number ${index} for warehouse region ${index % 17}: stock levels, reorder points and supplier lead times.`,
      inputSchema: z.object({ region: z.string(), quarter: z.number().int() }),
      execute: async () => ({ report: index }),
    }) as AnyMastraTool;
  }
  return { ...reports, ...createCatalog(log) };
}

describe("ToolSearchProcessor with expose: 'proxy'", () => {
  it('runs the top hit of a search in the second request, through call_tool, once', async () => {
    const log: ExecutionLog = { runs: [] };
    const processor = new ToolSearchProcessor({ tools: createCatalog(log), expose: 'proxy' });
    let topHit: string | undefined;
    const run = await runAgent({
      processor,
      script: (turn) => {
        if (turn.call === 0)
          return { toolName: 'search_tools', input: { query: 'weather forecast for a city' } };
        if (turn.call === 1) {
          // The model reads the search's answer: the best hit, with the schema it needs.
          const output = turn.toolResults.at(-1)!.output as {
            results: { name: string }[];
            tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
          };
          topHit = output.results[0]!.name;
          expect(output.tools[0]!.name).toBe(topHit);
          expect(Object.keys(output.tools[0]!.inputSchema.properties)).toEqual(['city']);
          return { toolName: 'call_tool', input: { name: topHit, arguments: { city: 'Oslo' } } };
        }
        return { text: 'Sunny in Oslo.' };
      },
      input: 'What is the weather in Oslo?',
      context: { mastra__threadId: 'thread-1' },
    });
    expect(topHit).toBe('get_weather');
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Oslo' } }]);
    expect(run.turns).toHaveLength(3);
    for (const turn of run.turns) expect(turn.toolNames).toEqual(PROXY_META);
  });

  it('runs a catalog tool the model calls through call_tool without having searched', async () => {
    const log: ExecutionLog = { runs: [] };
    const processor = new ToolSearchProcessor({ tools: createCatalog(log), expose: 'proxy' });
    await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? {
              toolName: 'call_tool',
              input: { name: 'github_create_issue', arguments: { repo: 'acme/app', title: 'Bug' } },
            }
          : { text: 'Filed.' },
      input: 'File a bug.',
    });
    expect(log.runs).toEqual([
      { toolName: 'github_create_issue', input: { repo: 'acme/app', title: 'Bug' } },
    ]);
  });
});

describe("ToolSearchProcessor with toolSearch: 'auto'", () => {
  it('offers a small catalog directly, no meta-tools and no instruction, at every step', async () => {
    const log: ExecutionLog = { runs: [] };
    const tools = createCatalog(log);
    const processor = new ToolSearchProcessor({ tools, toolSearch: 'auto' });
    const run = await runAgent({
      processor,
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'get_weather', input: { city: 'Rome' } }
          : { text: 'Warm in Rome.' },
      input: 'Weather in Rome?',
    });
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Rome' } }]);
    expect(run.turns).toHaveLength(2);
    for (const turn of run.turns) expect(turn.toolNames).toEqual(Object.keys(tools));
    expect(run.turns[0]!.system).not.toContain('search_tools');
  });

  it('searches a catalog that weighs the threshold or more, and by default always', async () => {
    const log: ExecutionLog = { runs: [] };
    for (const processor of [
      new ToolSearchProcessor({ tools: largeCatalog(log, 150), toolSearch: 'auto' }),
      new ToolSearchProcessor({ tools: createCatalog(log) }),
    ]) {
      const run = await runAgent({
        processor,
        script: () => ({ text: 'Nothing to do.' }),
        input: 'Hello.',
      });
      expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool']);
      expect(run.turns[0]!.system).toContain('search_tools');
    }
  });
});
