import { generateText, toolSearch as nativeToolSearch, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { createToolSearch } from './index';
import { AI_MAJORS } from './test-utils/ai-majors';
import { createCatalog } from './test-utils/catalog';

const ai7 = AI_MAJORS.find((major) => major.name === 'ai 7')!;

describe('rankTools', () => {
  it('ranks the offered tools by their schemas too, best first', () => {
    const { tools } = createCatalog(ai7);
    const { rankTools } = createToolSearch({ toolSearch: true, tools });
    const offered = Object.entries(tools).map(([name, tool]) => ({
      name,
      description: tool.description as string,
    }));
    expect(rankTools({ query: 'salesforce account', tools: offered })[0]).toBe('mcp_lookup');
    expect(rankTools({ query: 'weather forecast', tools: offered })[0]).toBe('get_weather');
  });

  it('ranks only the tools it is offered, including tools outside the catalog', () => {
    const { tools } = createCatalog(ai7);
    const { rankTools } = createToolSearch({ toolSearch: true, tools });
    const ranked = rankTools({
      query: 'weather radar',
      tools: [
        { name: 'send_email', description: 'Send an email' },
        { name: 'radar_map', description: 'Show the weather radar map' },
      ],
    });
    expect(ranked).toEqual(['radar_map']);
  });

  it('plugs into ai 7’s native toolSearch and finds what its default ranking misses', async () => {
    const { tools, executions } = createCatalog(ai7);
    const search = createToolSearch({ toolSearch: true, tools });
    const deferred = Object.fromEntries(
      Object.entries(tools).map(([name, tool]) => [name, { ...tool, deferLoading: true }]),
    );
    const { model, sentTools } = ai7.scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'salesforce account' } }] },
      { toolCalls: [{ toolName: 'mcp_lookup', input: { salesforceAccountId: '001' } }] },
      { text: 'found it' },
    ]);
    const result = await generateText({
      model: model as never,
      tools: { ...deferred, tool_search: nativeToolSearch({ search: search.rankTools }) },
      stopWhen: stepCountIs(5),
      prompt: 'Look up account 001',
    });
    expect(sentTools()[0]).toEqual(['tool_search']);
    expect(sentTools()[1]).toContain('mcp_lookup');
    expect(executions.mcp_lookup).toEqual([{ salesforceAccountId: '001' }]);
    expect(result.text).toBe('found it');

    const native = ai7.scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'salesforce account' } }] },
      { text: 'nothing' },
    ]);
    const nativeResult = await generateText({
      model: native.model as never,
      tools: { ...deferred, tool_search: nativeToolSearch() },
      stopWhen: stepCountIs(5),
      prompt: 'Look up account 001',
    });
    expect(nativeResult.steps[0]!.toolResults[0]!.output).toEqual({ tools: [] });
  });
});
