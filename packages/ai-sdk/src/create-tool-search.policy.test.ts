import { describe, expect, it } from 'vitest';
import { AI_MAJORS } from './test-utils/ai-majors';
import { META, setup, toolResultsOf, withContext } from './test-utils/setup';

describe.each(AI_MAJORS)('createToolSearch policy on $name', (major) => {
  it('keeps loaded tools per thread in memory, the thread taken from the call’s context', async () => {
    const { toolSearch } = setup(major, {
      storage: 'in-memory',
      threadId: (context) => context?.userId,
    });
    const load = major.scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'create_issue' } }] },
      { text: 'loaded' },
    ]);
    await major.generateText({
      model: load.model,
      tools: toolSearch.tools,
      ...withContext(major, toolSearch, { userId: 'ada' }),
      stopWhen: major.stepCountIs(5),
      prompt: 'load it',
    });
    const sameThread = major.scriptedModel([{ text: 'hi' }]);
    await major.generateText({
      model: sameThread.model,
      tools: toolSearch.tools,
      ...withContext(major, toolSearch, { userId: 'ada' }),
      prompt: 'Hello again',
    });
    const otherThread = major.scriptedModel([{ text: 'hi' }]);
    await major.generateText({
      model: otherThread.model,
      tools: toolSearch.tools,
      ...withContext(major, toolSearch, { userId: 'grace' }),
      prompt: 'Hello',
    });
    expect(sameThread.sentTools()[0]).toEqual([...META, 'create_issue']);
    expect(otherThread.sentTools()[0]).toEqual(META);
    expect(toolSearch.engine.getStateStats().threadCount).toBe(1);
  });

  it('hides a tool the filter denies at the search phase', async () => {
    const denied: unknown[] = [];
    const { toolSearch } = setup(major, {
      filter: ({ toolName, phase, requestContext }) =>
        !requestContext?.deny?.[phase]?.includes(toolName),
      onDenied: (event) => denied.push(event),
    });
    const { model } = major.scriptedModel([
      { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast' } }] },
      { text: 'none' },
    ]);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      ...withContext(major, toolSearch, { deny: { search: ['get_weather'] } }),
      stopWhen: major.stepCountIs(5),
      prompt: 'weather',
    });
    const names = (toolResultsOf(result)[0]!.output as { results: { name: string }[] }).results.map(
      (hit) => hit.name,
    );
    expect(names).not.toContain('get_weather');
    expect(denied).toContainEqual(
      expect.objectContaining({ toolName: 'get_weather', phase: 'search' }),
    );
  });

  it('refuses a load the filter denies, with the call’s context', async () => {
    const { toolSearch } = setup(major, {
      filter: ({ toolName, phase, requestContext }) =>
        !requestContext?.deny?.[phase]?.includes(toolName),
    });
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { text: 'cannot' },
    ]);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      ...withContext(major, toolSearch, { deny: { load: ['send_email'] } }),
      stopWhen: major.stepCountIs(5),
      prompt: 'email',
    });
    expect(toolResultsOf(result)[0]!.output).toMatchObject({ success: false });
    expect(sentTools()[1]).toEqual(META);
  });

  it('withdraws a loaded tool the filter denies at the active phase', async () => {
    const { toolSearch, executions } = setup(major, {
      filter: ({ toolName, phase, requestContext }) =>
        !requestContext?.deny?.[phase]?.includes(toolName),
    });
    const { model, sentTools } = major.scriptedModel([
      { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'send_email' } }] },
      { toolCalls: [{ toolName: 'send_email', input: { to: 'a@b.c', body: 'hi' } }] },
      { text: 'done' },
    ]);
    await major.generateText({
      model,
      tools: toolSearch.tools,
      ...withContext(major, toolSearch, { deny: { active: ['send_email'] } }),
      stopWhen: major.stepCountIs(5),
      prompt: 'email',
    });
    expect(sentTools()[1]).toEqual(META);
    expect(executions.send_email).toBeUndefined();
  });

  it('never runs a tool the model calls without loading it, and reports it', async () => {
    const denied: unknown[] = [];
    const { toolSearch, executions } = setup(major, { onDenied: (event) => denied.push(event) });
    const { model } = major.scriptedModel([
      { toolCalls: [{ toolName: 'send_email', input: { to: 'a@b.c', body: 'hi' } }] },
      { text: 'sorry' },
    ]);
    const result = await major.generateText({
      model,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: major.stepCountIs(5),
      prompt: 'email',
    });
    expect(executions.send_email).toBeUndefined();
    expect(result.text).toBe('sorry');
    expect(denied).toContainEqual(
      expect.objectContaining({ toolName: 'send_email', phase: 'execute', reason: 'not-active' }),
    );
  });
});
