import { describe, expect, it } from 'vitest';
import { createToolSearchEngine } from '../engine/tool-search-engine';
import type { ToolSearchSession } from '../engine/tool-search-session';
import type { ToolSearchEngineOptions } from '../engine/types';
import type { LoadToolOutput, SearchToolsOutput } from './meta-tool-schemas';

interface FakeTool {
  description: string;
}

const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  get_forecast: { description: 'Multi-day weather forecast for a city' },
  send_email: { description: 'Send an email to a recipient' },
  archive_mailbox: {
    description: `Archive a mailbox. ${'It keeps every message, folder and label intact. '.repeat(6)}`,
  },
};

function sessionFor(options: Partial<ToolSearchEngineOptions<FakeTool>> = {}) {
  return createToolSearchEngine<FakeTool>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  }).createSession({ threadId: 'results' });
}
const call = (session: ToolSearchSession<FakeTool>, name: string, input: unknown) =>
  session.metaTools.find((tool) => tool.name === name)!.execute(input);
const search = (session: ToolSearchSession<FakeTool>, query: string) =>
  call(session, 'search_tools', { query }) as Promise<SearchToolsOutput>;
const load = (session: ToolSearchSession<FakeTool>, input: unknown) =>
  call(session, 'load_tool', input) as Promise<LoadToolOutput>;

describe('search_tools results', () => {
  it('start with "No tools found" when nothing matches, also for an empty query', async () => {
    const session = sessionFor();
    for (const query of ['zzyzx quasar', '   ']) {
      const output = await search(session, query);
      expect(output.results).toEqual([]);
      expect(output.message).toMatch(/^No tools found/);
    }
  });

  it('cut descriptions to 150 characters at a word', async () => {
    const [result] = (await search(sessionFor(), 'archive mailbox')).results;
    expect(result!.description.length).toBeLessThanOrEqual(150);
    expect(result!.description).toMatch(/^Archive a mailbox\. It keeps .*\w…$/);
  });

  it('under autoLoad, show only tools the load filter allows, with a receipt of what is loaded', async () => {
    const session = sessionFor({
      search: { autoLoad: true, topK: 2 },
      filter: ({ toolName, phase }) => phase !== 'load' || toolName !== 'get_forecast',
    });
    const first = await search(session, 'weather forecast');
    expect(first.results.map((result) => result.name)).toEqual(['get_weather']);
    expect(first.activation).toEqual({
      type: 'tool-search-auto-load',
      version: 1,
      loaded: ['get_weather'],
    });
    expect(first.message).toMatch(/loaded 1 tool/);
    expect((await search(session, 'weather')).message).toMatch(/already loaded: get_weather/);
  });

  it('under autoLoad, say so when every match is one the load filter denies', async () => {
    const session = sessionFor({
      search: { autoLoad: true },
      filter: ({ phase }) => phase !== 'load',
    });
    const output = await search(session, 'weather');
    expect(output).toEqual({
      results: [],
      message: expect.stringMatching(/^No tools available to load/),
    });
  });

  it('carry no receipt without autoLoad', async () => {
    const output = await search(sessionFor(), 'weather');
    expect(output.results.length).toBeGreaterThan(0);
    expect(output.activation).toBeUndefined();
    expect(output.message).toMatch(/load_tool/);
  });
});

describe('load_tool results', () => {
  it('list the tool in `loaded`, whether newly or already loaded', async () => {
    const session = sessionFor();
    expect(await load(session, { toolName: 'send_email' })).toEqual({
      success: true,
      message: expect.stringMatching(/^Tool "send_email" loaded successfully\./),
      toolName: 'send_email',
      loaded: ['send_email'],
    });
    expect(await load(session, { toolName: 'send_email' })).toEqual({
      success: true,
      message: expect.stringMatching(/^Tool "send_email" is already loaded\./),
      toolName: 'send_email',
      loaded: ['send_email'],
    });
  });

  it('answer an empty toolNames list with Mastra’s sentence, and no names at all with guidance', async () => {
    const session = sessionFor();
    expect(await load(session, { toolNames: [] })).toEqual({
      success: false,
      message: 'toolNames array must not be empty.',
    });
    expect((await load(session, {})).message).toMatch(/toolName/);
    expect((await load(session, { toolNames: [], toolName: 'send_email' })).success).toBe(true);
  });
});

describe('malformed meta-tool calls', () => {
  it('name the argument that failed, what it takes and what it got', async () => {
    const session = sessionFor({ unloadTool: true });
    for (const limit of [0, 51, 2.5, '2']) {
      const output = (await call(session, 'search_tools', {
        query: 'weather',
        limit,
      })) as SearchToolsOutput;
      expect(output).toEqual({
        results: [],
        success: false,
        message: `search_tools: "limit" must be a whole number from 1 to 50, or left out, got ${JSON.stringify(limit)}.`,
      });
    }
    expect(await call(session, 'search_tools', 'weather')).toMatchObject({
      success: false,
      message: expect.stringMatching(
        /^search_tools takes an object of arguments \("query", "limit"\), got "weather"/,
      ),
    });
    expect(await load(session, { toolName: 7 })).toEqual({
      success: false,
      message:
        'load_tool: "toolName" must be one exact tool name from search results (a string), got 7.',
    });
    expect(await load(session, { toolNames: 'get_weather' })).toMatchObject({
      success: false,
      message: expect.stringContaining('"toolNames" must be an array of up to 50 exact tool names'),
    });
    expect(await call(session, 'unload_tool', { toolNames: [] })).toMatchObject({
      success: false,
      message:
        'unload_tool: "toolNames" must be an array of 1 to 50 names of loaded tools (strings), got [].',
    });
    // Mastra's own phrase for an empty list is kept.
    expect(await load(session, { toolNames: [] })).toMatchObject({
      success: false,
      message: 'toolNames array must not be empty.',
    });
  });

  it('echo a huge value cut, never whole', async () => {
    const output = (await call(sessionFor(), 'search_tools', {
      query: 'weather',
      limit: 'x'.repeat(10_000),
    })) as SearchToolsOutput;
    expect(output.message.length).toBeLessThan(200);
  });
});
