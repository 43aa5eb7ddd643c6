import { describe, expect, it } from 'vitest';
import { AI_MAJORS } from './test-utils/ai-majors';
import { META, searchLoadCallAnswer, setup, toolResultsOf } from './test-utils/setup';

describe.each(AI_MAJORS)('createToolSearch on $name', (major) => {
  it('runs search → load → call → answer, sending each step only the active tools', async () => {
    const { toolSearch, executions } = setup(major);
    const { model, sentTools } = major.scriptedModel(searchLoadCallAnswer);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(10),
      prompt: 'Weather in Paris?',
    });
    expect(sentTools()).toEqual([META, META, [...META, 'get_weather'], [...META, 'get_weather']]);
    expect(executions.get_weather).toEqual([{ city: 'Paris' }]);
    const [search] = toolResultsOf(result);
    expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe(
      'get_weather',
    );
    expect(result.text).toBe('It is sunny in Paris.');
  });

  it('streams the same loop with streamText', async () => {
    const { toolSearch, executions } = setup(major);
    const { model, sentTools } = major.scriptedModel(searchLoadCallAnswer);
    const result = major.streamText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(10),
      prompt: 'Weather in Paris?',
    });
    expect(await result.text).toBe('It is sunny in Paris.');
    expect(sentTools()[2]).toEqual([...META, 'get_weather']);
    expect(executions.get_weather).toHaveLength(1);
  });

  it('runs inside the major’s agent class', async () => {
    const { toolSearch, executions } = setup(major);
    const { model, sentTools } = major.scriptedModel(searchLoadCallAnswer);
    const agent = new major.Agent({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(10),
    });
    const result = await agent.generate({ prompt: 'Weather in Paris?' });
    expect(result.text).toBe('It is sunny in Paris.');
    expect(sentTools()[2]).toEqual([...META, 'get_weather']);
    expect(executions.get_weather).toHaveLength(1);
  });

  it('appends loaded tools in load order where the major has toolOrder', async () => {
    const { toolSearch } = setup(major);
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'translate_text' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'convert_currency' } }] },
      { text: 'done' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'go',
    });
    const sent = sentTools()[2]!;
    // ai 5 and 6 send tools in the key order of `tools`; only ai 7 can append.
    expect(sent).toEqual(
      major.name === 'ai 7'
        ? [...META, 'translate_text', 'convert_currency']
        : [...META, 'convert_currency', 'translate_text'],
    );
  });

  it('loads what search finds under autoLoad, without offering load_tool', async () => {
    const { toolSearch, executions } = setup(major, { search: { autoLoad: true, topK: 2 } });
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast city' } }] },
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Oslo' } }] },
      { text: 'cold' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'Weather in Oslo?',
    });
    expect(sentTools()[0]).toEqual(['search_tools']);
    expect(sentTools()[1]).toContain('get_weather');
    expect(sentTools()[1]!.length).toBeLessThanOrEqual(3);
    expect(executions.get_weather).toEqual([{ city: 'Oslo' }]);
  });

  it('keeps loaded tools across two calls from the messages the app passes back (context storage)', async () => {
    const { toolSearch, executions } = setup(major);
    const first = major.scriptedModel(searchLoadCallAnswer);
    const prompt = [{ role: 'user', content: 'Weather in Paris?' }];
    const firstResult = await major.generateText({
      model: first.model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(10),
      messages: prompt,
    });
    const history = [...prompt, ...(await major.responseMessages(firstResult))];

    const second = major.scriptedModel([
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Rome' } }] },
      { text: 'Warm in Rome.' },
    ]);
    await major.generateText({
      model: second.model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      messages: [...history, { role: 'user', content: 'And Rome?' }],
    });
    expect(second.sentTools()[0]).toEqual([...META, 'get_weather']);
    expect(executions.get_weather).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);

    const fresh = major.scriptedModel([{ text: 'hi' }]);
    await major.generateText({
      model: fresh.model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      prompt: 'Hello',
    });
    expect(fresh.sentTools()[0]).toEqual(META);
  });

  it('keeps within maxLoadedTools and unloads on request', async () => {
    const evicted: unknown[] = [];
    const { toolSearch } = setup(major, {
      maxLoadedTools: 1,
      unloadTool: true,
      onEvict: (event) => evicted.push(event),
    });
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'translate_text' } }] },
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'get_weather' } }] },
      { toolCalls: [{ toolName: 'unload_tool', input: { toolNames: ['get_weather'] } }] },
      { text: 'done' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(6),
      prompt: 'go',
    });
    const meta = [...META, 'unload_tool'];
    expect(sentTools()).toEqual([
      meta,
      [...meta, 'translate_text'],
      [...meta, 'get_weather'],
      meta,
    ]);
    expect(evicted).toEqual([
      expect.objectContaining({ toolNames: ['translate_text'], reason: 'budget' }),
      expect.objectContaining({ toolNames: ['get_weather'], reason: 'unload' }),
    ]);
  });

  it('offers pinned tools from the first step', async () => {
    const { toolSearch } = setup(major, { alwaysLoaded: ['translate_text'] });
    const { model, sentTools } = major.scriptedModel([{ text: 'hi' }]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      prompt: 'hi',
    });
    expect(sentTools()[0]).toEqual([...META, 'translate_text']);
  });

  it('composes a prepareStep of yours: its settings pass through and its activeTools narrow', async () => {
    const { toolSearch } = setup(major);
    const { model, sentTools, sentToolChoices } = major.scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'get_weather' } }] },
      { toolCalls: [{ toolName: 'get_weather', input: { city: 'Lima' } }] },
    ]);
    const seenSteps: number[] = [];
    await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.createPrepareStep({
        prepareStep: ({ stepNumber }: { stepNumber?: number; messages: readonly unknown[] }) => {
          seenSteps.push(stepNumber ?? -1);
          return stepNumber === 1
            ? { activeTools: ['search_tools', 'get_weather'], toolChoice: 'required' }
            : undefined;
        },
      }),
      stopWhen: major.stepCountIs(2),
      prompt: 'weather',
    });
    expect(seenSteps).toEqual([0, 1]);
    expect(sentTools()[1]).toEqual(['search_tools', 'get_weather']);
    expect(sentToolChoices()[1]).toEqual({ type: 'required' });
  });

  it('indexes JSON-schema tools (dynamicTool, MCP) by their parameters', async () => {
    const { toolSearch } = setup(major);
    const { model } = major.scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'salesforce account' } }] },
      { text: 'found' },
    ]);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(3),
      prompt: 'crm',
    });
    const [first] = (toolResultsOf(result)[0]!.output as { results: { name: string }[] }).results;
    expect(first!.name).toBe('mcp_lookup');
  });
});
