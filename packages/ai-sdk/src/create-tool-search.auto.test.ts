import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolSearch } from './create-tool-search';
import { AI_MAJORS, type AiMajor } from './test-utils/ai-majors';
import { createCatalog } from './test-utils/catalog';
import { toolResultsOf } from './test-utils/setup';

/**
 * The test catalog plus `count` more tools, each a few dozen tokens: a catalog heavy enough that
 * the default `toolSearch: 'auto'` searches it.
 */
function largeCatalog(major: AiMajor, count: number) {
  const { tools, executions } = createCatalog(major);
  const more: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    more[`inventory_report_${index}`] = major.tool({
      description: `Inventory report number ${index} for warehouse region ${index % 17}: stock levels, reorder points and supplier lead times.`,
      inputSchema: z.object({ region: z.string(), quarter: z.number().int() }),
      execute: async () => ({ report: index }),
    });
  }
  return { tools: { ...more, ...tools }, executions };
}

describe.each(AI_MAJORS)('createToolSearch with its defaults on $name', (major) => {
  it('runs the top hit of a search in the second request, through call_tool, once', async () => {
    const { tools, executions } = largeCatalog(major, 150);
    const toolSearch = createToolSearch({ tools });
    expect(toolSearch.engine.searchesCatalog).toBe(true);
    const { model, sentTools } = major.scriptedModel([
      {
        toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast for a city' } }],
      },
      {
        toolCalls: [
          { toolName: 'call_tool', input: { name: 'get_weather', arguments: { city: 'Oslo' } } },
        ],
      },
      { text: 'Sunny.' },
    ]);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'What is the weather in Oslo?',
    });
    expect(result.text).toBe('Sunny.');
    const [search] = toolResultsOf(result);
    const answer = search!.output as {
      results: { name: string }[];
      tools?: { name: string; inputSchema: unknown }[];
    };
    // The search's best hit comes with its definition, which is what the second request runs.
    expect(answer.results[0]?.name).toBe('get_weather');
    expect(answer.tools?.[0]?.name).toBe('get_weather');
    expect(answer.tools?.[0]?.inputSchema).toMatchObject({ properties: { city: {} } });
    expect(executions).toEqual({ get_weather: [{ city: 'Oslo' }] });
    expect(sentTools()).toHaveLength(3);
    for (const names of sentTools())
      expect(names).toEqual(['search_tools', 'load_tool', 'call_tool']);
  });

  it('runs a catalog tool the model calls through call_tool without having searched', async () => {
    const { tools, executions } = largeCatalog(major, 150);
    const toolSearch = createToolSearch({ tools });
    const { model } = major.scriptedModel([
      {
        toolCalls: [
          {
            toolName: 'call_tool',
            input: { name: 'create_issue', arguments: { repo: 'acme/app', title: 'Bug' } },
          },
        ],
      },
      { text: 'Filed.' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(3),
      prompt: 'File a bug.',
    });
    expect(executions).toEqual({ create_issue: [{ repo: 'acme/app', title: 'Bug' }] });
  });

  it('gives a small catalog directly, no meta-tools, the same tools at every step', async () => {
    const { tools, executions } = createCatalog(major);
    const toolSearch = createToolSearch({ tools });
    expect(toolSearch.engine.searchesCatalog).toBe(false);
    expect(toolSearch.instructions).toBe('');
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Paris' } }] },
      { toolCalls: [{ toolName: 'send_email', input: { to: 'a@b.c', body: 'Sunny' } }] },
      { text: 'Done.' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'Weather, then mail it.',
    });
    expect(Object.keys(executions).sort()).toEqual(['get_weather', 'send_email']);
    const steps = sentTools();
    expect(steps).toHaveLength(3);
    expect([...steps[0]!].sort()).toEqual(Object.keys(tools).sort());
    for (const names of steps) expect(names).toEqual(steps[0]);
  });

  it('gives a caller whom the filter leaves few tools of a large catalog those tools directly', async () => {
    const { tools, executions } = largeCatalog(major, 150);
    const toolSearch = createToolSearch({
      tools,
      filter: ({ toolName }) => toolName === 'get_weather' || toolName === 'send_email',
    });
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Rome' } }] },
      { text: 'Warm.' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(3),
      prompt: 'Weather in Rome?',
    });
    expect(sentTools()[0]!.sort()).toEqual(['get_weather', 'send_email']);
    expect(executions).toEqual({ get_weather: [{ city: 'Rome' }] });
  });
});
