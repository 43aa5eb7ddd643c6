import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { runAgent } from './agent-loop';
import { createCatalog } from './catalog';
import { recordedFetch } from './recorded';

describe('runAgent', () => {
  it('finds, loads and calls the GitHub function of 1,000, sending the same namespaces each step', async () => {
    const fetch = recordedFetch();
    const sent: unknown[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)).tools);
      return fetch(input, init);
    }) as typeof globalThis.fetch;
    const run = await runAgent({
      client: new OpenAI({ apiKey: 'offline', fetch: recording }),
      model: 'gpt-5.4',
      catalog: createCatalog(),
      prompt: 'Open a GitHub issue',
    });
    // 40 services of 25 functions, each split into namespaces of at most 9: 9 + 9 + 7.
    expect(run.tools).toHaveLength(1 + 40 * 3);
    expect(run.steps.map((step) => step.action)).toEqual([
      'tool_search({"query":"create github issue"})',
      'github.github__create_issue',
      'answer',
    ]);
    expect(run.steps[0]!.loaded![0]).toBe('github__create_issue');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((tools) => JSON.stringify(tools))).size).toBe(1);
    expect(run.answer).toBe('I opened the GitHub issue.');
  });
});
