import { describe, expect, it, vi } from 'vitest';
import { toolRuns } from './catalog';
import { runExample } from './run-example';

describe('runExample', () => {
  it('searches, loads and calls the two tools the task needs out of 300, then answers', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const run = await runExample();
    expect(run.catalogSize).toBe(300);
    expect(run.steps.map((step) => step.action.replace(/\(.*$/, ''))).toEqual([
      'search_tools',
      'load_tool',
      'weather_get_forecast',
      'search_tools',
      'load_tool',
      'slack_create_message',
      'answer',
    ]);
    expect(run.steps.map((step) => step.toolsSent)).toEqual([2, 2, 3, 3, 3, 4, 4]);
    expect(toolRuns.map((entry) => entry.toolName)).toEqual([
      'weather_get_forecast',
      'slack_create_message',
    ]);
    expect(run.answer).toMatch(/Lisbon/);
    vi.unstubAllEnvs();
  });
});
