/**
 * Regression tests for the bugs the model-based property tests found, one `describe` each, as
 * small fixed examples that fail without the fix.
 */
import { describe, expect, it } from 'vitest';
import type { LoadToolOutput } from '../meta-tools/meta-tool-schemas';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolResultRecord, ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
}

const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  send_email: { description: 'Send an email to a recipient' },
  create_issue: { description: 'Open an issue in a GitHub repository' },
};

function engineFor(options: Partial<ToolSearchEngineOptions<FakeTool>> = {}) {
  return createToolSearchEngine<FakeTool>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

async function load(session: ToolSearchSession<FakeTool>, input: unknown): Promise<LoadToolOutput> {
  const tool = session.metaTools.find((candidate) => candidate.name === 'load_tool')!;
  return (await tool.execute(input)) as LoadToolOutput;
}

const activeIds = async (session: ToolSearchSession<FakeTool>) =>
  (await session.activeTools()).map((tool) => tool.id);

describe('context storage with pinned tools and a budget', () => {
  it('keeps a tool loaded alongside a pinned one: the pin takes no room in the budget', async () => {
    const engine = engineFor({
      storage: 'context',
      alwaysLoaded: ['create_issue'],
      maxLoadedTools: 1,
    });
    const output = await load(engine.createSession(), {
      toolNames: ['get_weather', 'create_issue'],
    });
    expect(output).toMatchObject({ loaded: ['get_weather'], alreadyLoaded: ['create_issue'] });
    const results: ToolResultRecord[] = [{ toolName: 'load_tool', output }];
    expect(await activeIds(engine.createSession({ toolResults: results }))).toEqual([
      'create_issue',
      'get_weather',
    ]);
  });

  it('never reports a pinned tool as evicted by a later load', async () => {
    const engine = engineFor({
      storage: 'context',
      alwaysLoaded: ['create_issue'],
      maxLoadedTools: 1,
    });
    const first = await load(engine.createSession(), { toolName: 'create_issue' });
    const second = await load(
      engine.createSession({ toolResults: [{ toolName: 'load_tool', output: first }] }),
      { toolName: 'send_email' },
    );
    expect(second).toMatchObject({ success: true, loaded: ['send_email'] });
    expect(second.evicted).toBeUndefined();
  });
});
