import { describe, expect, it } from 'vitest';
import { runExample } from './agent';

describe('runExample', () => {
  it('searches, loads and calls each tool the task needs, then answers', async () => {
    const run = await runExample();
    expect(run.catalogSize).toBe(300);
    expect(run.toolCalls).toEqual([
      'search_tools',
      'load_tool',
      'call_tool',
      'search_tools',
      'load_tool',
      'call_tool',
      'search_tools',
      'load_tool',
      'call_tool',
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

  it('sends the same three meta-tools at every step instead of the whole catalog', async () => {
    const run = await runExample();
    expect(run.steps).toHaveLength(10);
    for (const step of run.steps)
      expect(step.toolsSent).toEqual(['search_tools', 'load_tool', 'call_tool']);
  });
});
