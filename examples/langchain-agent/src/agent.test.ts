import { describe, expect, it } from 'vitest';
import { runExample } from './agent';

describe('runExample', () => {
  it('searches, loads and calls each tool the task needs, then answers', async () => {
    const run = await runExample();
    expect(run.catalogSize).toBe(300);
    expect(run.toolCalls).toEqual([
      'search_tools',
      'load_tool',
      'weather_get_forecast',
      'search_tools',
      'load_tool',
      'github_create_issue',
      'search_tools',
      'load_tool',
      'slack_create_message',
    ]);
    const topHit = (text: string | undefined) => JSON.parse(text ?? '{}').results?.[0]?.name;
    expect([0, 3, 6].map((index) => topHit(run.toolResults[index]))).toEqual([
      'weather_get_forecast',
      'github_create_issue',
      'slack_create_message',
    ]);
    expect(run.toolResults[2]).toContain('Light rain');
    expect(run.answer).toMatch(/acme\/trips/);
  });

  it('sends an append-only list of a few tools instead of the whole catalog', async () => {
    const run = await runExample();
    expect(run.steps.map((step) => step.toolsSent.length)).toEqual([2, 2, 3, 3, 3, 4, 4, 4, 5, 5]);
    for (const [index, step] of run.steps.entries()) {
      const previous = run.steps[index - 1]?.toolsSent ?? [];
      expect(step.toolsSent.slice(0, previous.length)).toEqual(previous);
    }
  });
});
