import { describe, expect, it } from 'vitest';
import { runDemo } from './demo';

describe('runDemo', () => {
  it('searches for the three tools the task needs and runs each in the next request, then answers', async () => {
    const run = await runDemo();
    const calls = run.steps.map((step) => step.action.split('(')[0]);
    expect(calls).toEqual([
      'search_tools',
      'call_tool',
      'search_tools',
      'call_tool',
      'search_tools',
      'call_tool',
      'answer',
    ]);
    const ran = run.steps
      .filter((step) => step.action.startsWith('call_tool('))
      .map((step) => JSON.parse(step.action.slice('call_tool('.length, -1)).name);
    expect(ran).toEqual(['weather_get_forecast', 'slackPostMessage', 'github_create_issue']);
    expect(run.answer).toMatch(/Lisbon/);
    expect(run.answer).toMatch(/#travel/);
  });

  it('sends the same three meta-tools at every step instead of the whole catalog', async () => {
    const run = await runDemo();
    expect(run.catalogTools).toBeGreaterThanOrEqual(200);
    expect(run.steps.map((step) => step.toolsSent)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(new Set(run.steps.map((step) => step.tokensSent)).size).toBe(1);
    for (const step of run.steps) expect(step.tokensSent * 10).toBeLessThan(run.catalogTokens);
  });

  it('prices its conversation beside sending every tool, with one request less per tool', async () => {
    const run = await runDemo();
    expect(run.cost.toolSearch.requests).toBe(7);
    expect(run.cost.everyTool.requests).toBe(4);
    expect(run.cost.toolSearch.priced).toBeGreaterThan(0);
    expect(run.cost.toolSearch.priced).toBeLessThan(run.cost.everyTool.priced);
  });
});
