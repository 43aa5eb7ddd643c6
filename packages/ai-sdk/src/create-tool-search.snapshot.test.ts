import { describe, expect, it } from 'vitest';
import { createToolSearch } from './create-tool-search';
import { AI_MAJORS } from './test-utils/ai-majors';
import { createCatalog } from './test-utils/catalog';
import { META, searchLoadCallAnswer, toolResultsOf } from './test-utils/setup';

describe.each(AI_MAJORS)('createToolSearch({ snapshot }) on $name', (major) => {
  it('starts from an index snapshot and runs search → load → call', async () => {
    const { tools, executions } = createCatalog(major);
    const snapshot = createToolSearch({ expose: 'tools', tools }).engine.index.toSnapshot();
    const errors: unknown[] = [];
    const toolSearch = createToolSearch({
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

  it('indexes the catalog and reports a snapshot of other tools', () => {
    const { tools } = createCatalog(major);
    const { get_weather, ...fewer } = tools;
    const stale = createToolSearch({ expose: 'tools', tools: fewer }).engine.index.toSnapshot();
    const errors: { operation: string }[] = [];
    const toolSearch = createToolSearch({
      expose: 'tools',
      tools,
      snapshot: stale,
      onError: (event) => errors.push(event),
    });
    expect(toolSearch.engine.index.has('get_weather')).toBe(true);
    expect(errors.map((event) => event.operation)).toEqual(['snapshot']);
  });
});
