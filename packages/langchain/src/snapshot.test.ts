import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { type CallLog, createCatalog, scriptedModel } from './testing/fixtures';
import { toolSearchMiddleware } from './tool-search-middleware';
import { createToolSearchSelector } from './tool-search-selector';

describe('toolSearchMiddleware({ snapshot })', () => {
  it('starts from an index snapshot and runs search → load → call', async () => {
    const log: CallLog = [];
    const tools = createCatalog(log);
    const snapshot = createToolSearchSelector({ expose: 'tools', tools }).engine.index.toSnapshot();
    const errors: unknown[] = [];
    const agent = createAgent({
      model: scriptedModel([
        { calls: [{ name: 'search_tools', args: { query: 'weather forecast' } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
        { calls: [{ name: 'get_weather', args: { city: 'Lisbon' } }] },
        { answer: 'Sunny.' },
      ]),
      tools: [],
      middleware: [
        toolSearchMiddleware({
          expose: 'tools',
          tools,
          snapshot,
          onError: (event) => errors.push(event),
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] });
    const [search] = result.messages.filter((message) => ToolMessage.isInstance(message));
    expect(JSON.parse(search!.text).results[0].name).toBe('get_weather');
    expect(log).toEqual(['get_weather']);
    expect(errors).toEqual([]);
  });
});
