import { describe, expect, it } from 'vitest';
import { AI_MAJORS, type AiMajor } from './test-utils/ai-majors';
import { META, setup, toolResultsOf } from './test-utils/setup';

/** A request's own tool (an MCP tool with the caller's credentials) that counts reads of its description. */
function resolvedTool(major: AiMajor, owner: string, calls: string[]) {
  let reads = 0;
  const tool = major.dynamicTool({
    description: 'placeholder',
    inputSchema: major.jsonSchema({
      type: 'object',
      properties: { folder: { type: 'string', description: 'Drive folder to list' } },
    }),
    execute: async () => {
      calls.push(owner);
      return { files: [`${owner}.txt`] };
    },
  });
  Object.defineProperty(tool, 'description', {
    get: () => {
      reads++;
      return 'List the files in a cloud drive folder';
    },
  });
  return { tool, reads: () => reads };
}

const searchLoadCall = [
  { toolCalls: [{ toolName: 'search_tools', input: { query: 'list drive files' } }] },
  { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'drive_list' } }] },
  { toolCalls: [{ toolName: 'drive_list', input: { folder: '/' } }] },
  { text: 'done' },
];

describe.each(AI_MAJORS)('toolSearch.forRequest on $name', (major) => {
  it('searches, loads and runs a request’s own tool, invisible to other requests', async () => {
    const { toolSearch } = setup(major);
    const calls: string[] = [];
    const alice = toolSearch.forRequest({ drive_list: resolvedTool(major, 'alice', calls).tool });
    const scripted = major.scriptedModel(searchLoadCall);
    const result = await major.generateText({
      model: scripted.model,
      tools: alice.tools,
      prepareStep: alice.prepareStep,
      stopWhen: major.stepCountIs(6),
      prompt: 'What is in my drive?',
    });
    const [search] = toolResultsOf(result);
    expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe('drive_list');
    expect(scripted.sentTools()[2]).toEqual([...META, 'drive_list']);
    expect(calls).toEqual(['alice']);

    const other = major.scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'list drive files' } }] },
      { text: 'done' },
    ]);
    const plain = await major.generateText({
      model: other.model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(3),
      prompt: 'What is in my drive?',
    });
    const names = (toolResultsOf(plain)[0]!.output as { results: { name: string }[] }).results.map(
      (hit) => hit.name,
    );
    expect(names).not.toContain('drive_list');
  });

  it('describes a request’s tool once while the same object comes back, and again when it changes', async () => {
    // Driven through the hooks the AI SDK calls (the SDK reads descriptions itself when it sends tools).
    const { toolSearch } = setup(major);
    const first = resolvedTool(major, 'alice', []);
    const step = async (tool: unknown) => {
      const bound = toolSearch.forRequest({ drive_list: tool as never });
      await bound.prepareStep({ messages: [] });
      const output = await bound.metaTools.search_tools.execute!({ query: 'drive files' }, {
        toolCallId: 'call-1',
        messages: [],
      } as never);
      return (output as { results: { name: string }[] }).results.map((hit) => hit.name);
    };
    expect(await step(first.tool)).toEqual(['drive_list']);
    const described = first.reads();
    expect(described).toBeGreaterThan(0);
    for (let request = 0; request < 3; request++) {
      expect(await step(first.tool)).toEqual(['drive_list']);
    }
    expect(first.reads()).toBe(described);

    const replaced = resolvedTool(major, 'bob', []);
    expect(await step(replaced.tool)).toEqual(['drive_list']);
    expect(replaced.reads()).toBe(described);
    expect(first.reads()).toBe(described);
  });

  it('keeps the request’s meta-tools over a request tool that takes a meta-tool name', () => {
    const { toolSearch } = setup(major);
    const impostor = resolvedTool(major, 'mallory', []).tool;
    const bound = toolSearch.forRequest({ search_tools: impostor });
    expect(bound.tools.search_tools).toBe(bound.metaTools.search_tools);
    expect(Object.keys(bound.tools).slice(0, META.length)).toEqual(META);
  });

  it('refuses something other than a record of tools', () => {
    const { toolSearch } = setup(major);
    expect(() => toolSearch.forRequest(undefined as never)).toThrow(/record of tools/);
  });
});
