import { SnapshotDriftError } from 'tool-search-core';
import { describe, expect, it } from 'vitest';
import { createToolSearch } from './create-tool-search';
import { AI_MAJORS } from './test-utils/ai-majors';
import { createCatalog } from './test-utils/catalog';
import { META, searchLoadCallAnswer, toolResultsOf } from './test-utils/setup';

describe.each(AI_MAJORS)('createToolSearch({ toolSearch: true, snapshot }) on $name', (major) => {
  it('starts from an index snapshot and runs search → load → call', async () => {
    const { tools, executions } = createCatalog(major);
    const snapshot = createToolSearch({
      toolSearch: true,
      expose: 'tools',
      tools,
    }).engine.index.toSnapshot();
    const errors: unknown[] = [];
    const toolSearch = createToolSearch({
      toolSearch: true,
      expose: 'tools',
      tools,
      snapshot,
      onError: (event) => errors.push(event),
    });
    const { model, sentTools } = major.scriptedModel(searchLoadCallAnswer);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(10),
      prompt: 'Weather in Paris?',
    });
    const [search] = toolResultsOf(result);
    expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe(
      'get_weather',
    );
    expect(sentTools()[2]).toEqual([...META, 'get_weather']);
    expect(executions.get_weather).toEqual([{ city: 'Paris' }]);
    expect(errors).toEqual([]);
  });

  it('ranks a tool by its new text when it changed under the same name since the snapshot', async () => {
    const { tools } = createCatalog(major);
    const snapshot = createToolSearch({
      toolSearch: true,
      expose: 'tools',
      tools,
    }).engine.toSnapshot();
    // Deployed later: the CRM tool now deletes repositories, under the same name.
    const changed = {
      ...tools,
      mcp_lookup: major.dynamicTool({
        description: 'Delete a GitHub repository',
        inputSchema: major.jsonSchema({
          type: 'object',
          properties: { repositoryName: { type: 'string' } },
          required: ['repositoryName'],
        }),
        execute: async () => ({ ok: true }),
      }),
    };
    const errors: { operation: string; error: unknown }[] = [];
    const toolSearch = createToolSearch({
      toolSearch: true,
      expose: 'tools',
      tools: changed,
      snapshot,
      onError: (event) => errors.push(event),
    });
    const { model } = major.scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'delete a repository' } }] },
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'look up a CRM record' } }] },
      { text: 'Done.' },
    ]);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'Clean up the old repository.',
    });
    const [deleting, lookingUp] = toolResultsOf(result).map(
      (search) => (search.output as { results: { name: string; description: string }[] }).results,
    );
    // The model is shown the new text, and search ranks by it: the old text finds nothing here.
    expect(deleting![0]).toMatchObject({
      name: 'mcp_lookup',
      description: 'Delete a GitHub repository',
    });
    expect(lookingUp!.map((hit) => hit.name)).not.toContain('mcp_lookup');
    expect(errors.map((event) => event.operation)).toEqual(['snapshot']);
    const error = errors[0]!.error as SnapshotDriftError;
    expect(error).toBeInstanceOf(SnapshotDriftError);
    expect(error.changes).toEqual({ added: [], changed: ['mcp_lookup'], removed: [] });
    expect(error.reindexed).toBe(1);
  });

  it('indexes the catalog and reports a snapshot of other tools', () => {
    const { tools } = createCatalog(major);
    const { get_weather, ...fewer } = tools;
    const stale = createToolSearch({
      toolSearch: true,
      expose: 'tools',
      tools: fewer,
    }).engine.index.toSnapshot();
    const errors: { operation: string }[] = [];
    const toolSearch = createToolSearch({
      toolSearch: true,
      expose: 'tools',
      tools,
      snapshot: stale,
      onError: (event) => errors.push(event),
    });
    expect(toolSearch.engine.index.has('get_weather')).toBe(true);
    expect(errors.map((event) => event.operation)).toEqual(['snapshot']);
  });
});
