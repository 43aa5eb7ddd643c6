import { describe, expect, it } from 'vitest';
import { runChat } from './chat';

describe('runChat', () => {
  it('searches, loads and calls a tool per turn, and reuses a tool loaded in an earlier turn', async () => {
    const run = await runChat();
    expect(run.catalogSize).toBe(300);
    const actions = run.turns.map((turn) => turn.steps.map((step) => step.action.split('(')[0]));
    expect(actions).toEqual([
      ['search_tools', 'load_tool', 'call_tool', 'answer'],
      ['search_tools', 'load_tool', 'call_tool', 'answer'],
      ['call_tool', 'answer'],
    ]);
    expect(run.turns[2]!.answer).toMatch(/^Done with github_create_issue: GH-\d+/);
  });

  it('sends the same three meta-tools at every step, never the catalog', async () => {
    const run = await runChat();
    const sent = run.turns.map((turn) => turn.steps.map((step) => step.toolsSent));
    expect(sent).toEqual([
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [3, 3],
    ]);
    const called = run.turns.flatMap((turn) =>
      turn.steps.filter((step) => step.action.startsWith('call_tool')).map((step) => step.action),
    );
    expect(called.map((action) => JSON.parse(action.slice('call_tool('.length, -1)).name)).toEqual([
      'github_create_issue',
      'slack_create_message',
      'github_create_issue',
    ]);
  });
});
