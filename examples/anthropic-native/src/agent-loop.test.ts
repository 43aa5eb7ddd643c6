import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { runAgent } from './agent-loop';
import { createCatalog } from './catalog';
import { recordedFetch } from './recorded';

describe('runAgent', () => {
  it('finds, loads and calls the GitHub tool of 1,000, sending the same deferred tools each step', async () => {
    const fetch = recordedFetch();
    const sent: unknown[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)).tools);
      return fetch(input, init);
    }) as typeof globalThis.fetch;
    const run = await runAgent({
      client: new Anthropic({ apiKey: 'offline', fetch: recording }),
      model: 'claude-sonnet-4-5',
      catalog: createCatalog(),
      prompt: 'Open a GitHub issue',
    });
    expect(run.tools).toHaveLength(1_001);
    expect(run.steps.map((step) => step.action)).toEqual([
      'search_tools({"query":"create github issue"})',
      'github__create_issue',
      'answer',
    ]);
    expect(run.steps[0]!.referenced![0]).toBe('github__create_issue');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((tools) => JSON.stringify(tools))).size).toBe(1);
    expect(run.answer).toBe('I opened the GitHub issue.');
  });
});
