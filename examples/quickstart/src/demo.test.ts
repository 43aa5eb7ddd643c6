import { describe, expect, it } from 'vitest';
import { runDemo } from './demo';

describe('runDemo', () => {
  it('searches, loads and calls the three tools the task needs, then answers', async () => {
    const run = await runDemo();
    const calls = run.steps.map((step) => step.action.split('(')[0]);
    expect(calls).toEqual([
      'search_tools',
      'load_tool',
      'weather_get_forecast',
      'search_tools',
      'load_tool',
      'slackPostMessage',
      'search_tools',
      'load_tool',
      'github_create_issue',
      'answer',
    ]);
    expect(run.answer).toMatch(/Lisbon/);
    expect(run.answer).toMatch(/#travel/);
  });

  it('sends a small, growing tool list instead of the whole catalog', async () => {
    const run = await runDemo();
    expect(run.catalogTools).toBeGreaterThanOrEqual(200);
    expect(run.steps.map((step) => step.toolsSent)).toEqual([2, 2, 3, 3, 3, 4, 4, 4, 5, 5]);
    for (const step of run.steps) expect(step.tokensSent * 10).toBeLessThan(run.catalogTokens);
  });
});
