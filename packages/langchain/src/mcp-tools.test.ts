import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeTool } from './describe-tool';
import {
  type CallLog,
  createCatalog,
  recordBoundTools,
  type Step,
  scriptedModel,
} from './testing/fixtures';
import { connectMcpTools } from './testing/mcp-server';
import { toolSearchMiddleware } from './tool-search-middleware';

const META = ['search_tools', 'load_tool'];

// Real MCP tools: an SDK `McpServer` in this process, reached by an SDK `Client` over an
// in-memory transport pair and loaded through `@langchain/mcp-adapters`' `loadMcpTools`.
let mcp: Awaited<ReturnType<typeof connectMcpTools>>;
const serverLog: string[] = [];

beforeAll(async () => {
  mcp = await connectMcpTools(serverLog);
});

beforeEach(() => {
  serverLog.length = 0;
});

afterAll(async () => {
  await mcp?.close();
});

function buildAgent(steps: Step[]) {
  const log: CallLog = [];
  const recorder = recordBoundTools();
  const agent = createAgent({
    model: scriptedModel(steps),
    tools: [],
    middleware: [
      toolSearchMiddleware({
        toolSearch: true,
        expose: 'tools',
        tools: [...createCatalog(log), ...mcp.tools],
      }),
      recorder.middleware,
    ],
  });
  return { agent, log, bound: recorder.calls };
}

const ask = (text: string) => ({ messages: [new HumanMessage(text)] });

function toolMessages(result: { messages: unknown[] }): ToolMessage[] {
  return result.messages.filter((message): message is ToolMessage =>
    ToolMessage.isInstance(message),
  );
}

describe('MCP tools from @langchain/mcp-adapters', () => {
  it('loads the server’s tools with their JSON schema, parameter descriptions included', () => {
    expect(mcp.tools.map((tool) => tool.name)).toEqual([
      'tide_times',
      'convert_currency',
      'geocode_address',
    ]);
    const tideTimes = mcp.tools.find((tool) => tool.name === 'tide_times')!;
    expect(tideTimes.description).not.toMatch(/marina/i);
    expect(describeTool(tideTimes)).toMatchObject({
      id: 'tide_times',
      description: 'Get high and low tide times for a coastal location',
      inputSchema: {
        type: 'object',
        properties: {
          port: { type: 'string', description: 'Harbour or marina where the tide is measured' },
          date: { type: 'string' },
        },
        required: ['port', 'date'],
      },
    });
  });

  it('finds an MCP tool by a word only its parameter description holds', async () => {
    const { agent } = buildAgent([
      { calls: [{ name: 'search_tools', args: { query: 'marina' } }] },
      { calls: [{ name: 'search_tools', args: { query: 'ISO 4217 currency' } }] },
      { answer: 'ok' },
    ]);
    const result = await agent.invoke(ask('tides'));
    const [marina, currency] = toolMessages(result).map(
      (message) => JSON.parse(message.text).results,
    );
    expect(marina.map((hit: { name: string }) => hit.name)).toEqual(['tide_times']);
    expect(currency[0].name).toBe('convert_currency');
    expect(serverLog).toEqual([]);
  });

  it('searches, loads, calls the MCP tool on the server, and answers', async () => {
    const { agent, log, bound } = buildAgent([
      { calls: [{ name: 'search_tools', args: { query: 'marina tide' } }] },
      { calls: [{ name: 'load_tool', args: { toolName: 'tide_times' } }] },
      { calls: [{ name: 'tide_times', args: { port: 'Cascais', date: '2025-06-01' } }] },
      { answer: 'High tide in Cascais at 06:12.' },
    ]);
    const result = await agent.invoke(ask('When is high tide in Cascais?'), {
      configurable: { thread_id: 'mcp' },
    });
    expect(bound).toEqual([META, META, [...META, 'tide_times'], [...META, 'tide_times']]);
    expect(serverLog).toEqual(['tide_times']);
    expect(log).toEqual([]);
    const [search, load, call] = toolMessages(result);
    expect(JSON.parse(search!.text).results[0].name).toBe('tide_times');
    expect(JSON.parse(load!.text)).toMatchObject({ success: true, toolName: 'tide_times' });
    expect(call!.name).toBe('tide_times');
    expect(call!.status).not.toBe('error');
    expect(call!.text).toBe('High tide in Cascais on 2025-06-01 at 06:12');
    expect(result.messages.at(-1)?.text).toBe('High tide in Cascais at 06:12.');
  });
});
