import { describe, expect, it } from 'vitest';
import { runChat } from './chat';

describe('runChat', () => {
  it('searches, loads and calls a tool per turn, and reuses a tool loaded in an earlier turn', async () => {
    const run = await runChat();
    expect(run.catalogSize).toBe(300);
    const actions = run.turns.map((turn) => turn.steps.map((step) => step.action.split('(')[0]));
    expect(actions).toEqual([
      ['search_tools', 'load_tool', 'github_create_issue', 'answer'],
      ['search_tools', 'load_tool', 'slack_create_message', 'answer'],
      ['github_create_issue', 'answer'],
    ]);
    expect(run.turns[2]!.answer).toMatch(/^Done with github_create_issue: GH-\d+/);
  });

  it('sends the meta-tools plus what the conversation loaded, never the catalog', async () => {
    const run = await runChat();
    const sent = run.turns.map((turn) => turn.steps.map((step) => step.toolsSent));
    expect(sent).toEqual([
      [2, 2, 3, 3],
      [3, 3, 4, 4],
      [4, 4],
    ]);
  });
});
