import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CallLog, createCatalog, recordBoundTools, scriptedModel } from './testing/fixtures';
import { toolSearchMiddleware } from './tool-search-middleware';
import { createToolSearchSelector } from './tool-search-selector';

/** The test catalog plus `count` reports of a few dozen tokens each: heavy enough to search. */
function largeCatalog(log: CallLog, count: number) {
  const reports = Array.from({ length: count }, (_, index) =>
    tool(async () => `report ${index}`, {
      name: `inventory_report_${index}`,
      description: `Inventory report number ${index} for warehouse region ${index % 17}: stock levels, reorder points and supplier lead times.`,
      schema: z.object({ region: z.string(), quarter: z.number().int() }),
    }),
  );
  return [...reports, ...createCatalog(log)];
}

describe('toolSearchMiddleware with its defaults', () => {
  it('runs the top hit of a search in the second request, through call_tool, once', async () => {
    const log: CallLog = [];
    const recorder = recordBoundTools();
    const agent = createAgent({
      model: scriptedModel([
        { calls: [{ name: 'search_tools', args: { query: 'weather forecast for a city' } }] },
        {
          calls: [
            { name: 'call_tool', args: { name: 'get_weather', arguments: { city: 'Oslo' } } },
          ],
        },
        { answer: 'Sunny.' },
      ]),
      tools: [],
      middleware: [toolSearchMiddleware({ tools: largeCatalog(log, 150) }), recorder.middleware],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather in Oslo?')] });
    expect(result.messages.at(-1)?.text).toBe('Sunny.');
    const [search] = result.messages.filter((message) => ToolMessage.isInstance(message));
    const answer = JSON.parse(search!.text) as {
      results: { name: string }[];
      tools: { name: string }[];
    };
    expect(answer.results[0]?.name).toBe('get_weather');
    expect(answer.tools[0]?.name).toBe('get_weather');
    expect(log).toEqual(['get_weather']);
    expect(recorder.calls).toEqual([
      ['search_tools', 'load_tool', 'call_tool'],
      ['search_tools', 'load_tool', 'call_tool'],
      ['search_tools', 'load_tool', 'call_tool'],
    ]);
    expect(recorder.systemPrompts[0]).toContain('call_tool');
  });

  it('runs a catalog tool the model calls through call_tool without having searched', async () => {
    const log: CallLog = [];
    const agent = createAgent({
      model: scriptedModel([
        {
          calls: [{ name: 'call_tool', args: { name: 'send_email', arguments: { to: 'a@b.c' } } }],
        },
        { answer: 'Sent.' },
      ]),
      tools: [],
      middleware: [toolSearchMiddleware({ tools: largeCatalog(log, 150) })],
    });
    await agent.invoke({ messages: [new HumanMessage('Mail Ada.')] });
    expect(log).toEqual(['send_email']);
  });

  it('binds a small catalog directly, no meta-tools and no instruction, at every call', async () => {
    const log: CallLog = [];
    const catalog = createCatalog(log);
    const recorder = recordBoundTools();
    const agent = createAgent({
      model: scriptedModel([
        { calls: [{ name: 'get_weather', args: { city: 'Porto' } }] },
        { answer: 'Mild.' },
      ]),
      tools: [],
      middleware: [toolSearchMiddleware({ tools: catalog }), recorder.middleware],
    });
    await agent.invoke({ messages: [new HumanMessage('Weather in Porto?')] });
    expect(log).toEqual(['get_weather']);
    expect(recorder.calls).toHaveLength(2);
    for (const names of recorder.calls) expect(names).toEqual(catalog.map((entry) => entry.name));
    expect(recorder.systemPrompts[0]).not.toContain('search_tools');
  });

  it('binds a small catalog directly in a hand-built loop too', async () => {
    const catalog = createCatalog([]);
    const selector = createToolSearchSelector({ tools: catalog });
    const bound = await selector.selectTools([]);
    expect(bound.map((entry) => entry.name)).toEqual(catalog.map((entry) => entry.name));
    expect(await selector.checkToolCall('get_weather', [])).toBeUndefined();
    const large = createToolSearchSelector({ tools: largeCatalog([], 150) });
    expect((await large.selectTools([])).map((entry) => entry.name)).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
    ]);
  });
});
