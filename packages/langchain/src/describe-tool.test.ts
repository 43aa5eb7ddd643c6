import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { describeTool } from './describe-tool';
import { createCatalog } from './testing/fixtures';
import { toolResultsFromMessages } from './tool-results';

describe('describeTool', () => {
  it('exposes the input schema of zod, JSON-schema and DynamicStructuredTool tools', () => {
    const [weather, email, issue] = createCatalog([]).map(describeTool);
    expect(weather).toMatchObject({
      id: 'get_weather',
      inputSchema: { properties: { city: { type: 'string', description: 'City name' } } },
    });
    expect(email).toMatchObject({
      id: 'send_email',
      inputSchema: { properties: { to: { description: 'Recipient address' } } },
    });
    expect(issue?.inputSchema).toMatchObject({ properties: { repo: {}, title: {} } });
  });
});

describe('toolResultsFromMessages', () => {
  it('keeps successful meta-tool results, naming a result by its call when it has no name', () => {
    const messages = [
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'a', name: 'load_tool', args: {} },
          { id: 'b', name: 'get_weather', args: {} },
          { id: 'c', name: 'load_tool', args: {} },
        ],
      }),
      new ToolMessage({ tool_call_id: 'a', content: '{"success":true,"toolName":"x"}' }),
      new ToolMessage({ tool_call_id: 'b', content: 'Sunny', name: 'get_weather' }),
      new ToolMessage({ tool_call_id: 'c', content: 'boom', status: 'error' }),
    ];
    expect(toolResultsFromMessages(messages)).toEqual([
      { toolName: 'load_tool', output: '{"success":true,"toolName":"x"}' },
    ]);
  });
});
