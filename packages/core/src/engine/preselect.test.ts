import { describe, expect, it } from 'vitest';
import type { LoadedToolsStore } from '../state/loaded-tools-store';
import { preloadTools, preselectTools } from './preselect';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
}

const catalog: Record<string, FakeTool> = {
  github_create_issue: { description: 'Open a new issue in a GitHub repository' },
  github_list_issues: { description: 'List the open issues of a GitHub repository' },
  send_email: { description: 'Send an email to a recipient' },
  get_weather: { description: 'Current weather and forecast for a city' },
};

function engineFor(options: Partial<ToolSearchEngineOptions<FakeTool>> = {}) {
  return createToolSearchEngine<FakeTool>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

const activeIds = async (session: { activeTools: () => Promise<{ id: string }[]> }) =>
  (await session.activeTools()).map((tool) => tool.id);

describe('preselectTools', () => {
  it('loads the tools the message ranks above minScore, best first, with no search call', async () => {
    const engine = engineFor();
    const session = engine.createSession({ threadId: 't' });
    const scores = engine.index.search(
      'please open an issue in our github repository and email me',
      {
        topK: 4,
      },
    );
    // Between the second and the third tool: only the two GitHub tools clear it.
    const minScore = (scores[1]!.score + scores[2]!.score) / 2;
    expect(
      scores
        .slice(0, 2)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(['github_create_issue', 'github_list_issues']);
    const outcome = await preselectTools(
      session,
      'please open an issue in our github repository and email me',
      {
        minScore,
      },
    );
    expect(outcome).toEqual({
      loaded: scores.slice(0, 2).map((hit) => hit.id),
      alreadyLoaded: [],
      skipped: [],
      evicted: [],
    });
    expect(await activeIds(engine.createSession({ threadId: 't' }))).toEqual(outcome.loaded);
  });

  it('loads nothing when no tool clears minScore, or the message is empty', async () => {
    const session = engineFor().createSession({ threadId: 't' });
    expect(
      (await preselectTools(session, 'hello there, how are you?', { minScore: 0 })).loaded,
    ).toEqual([]);
    expect((await preselectTools(session, 'github issue', { minScore: 1_000 })).loaded).toEqual([]);
    expect((await preselectTools(session, '   ', { minScore: 0 })).loaded).toEqual([]);
    expect(await session.activeTools()).toEqual([]);
  });

  it('keeps to maxTools', async () => {
    const session = engineFor().createSession({ threadId: 't' });
    const outcome = await preselectTools(session, 'github issues repository', {
      minScore: 0,
      maxTools: 1,
    });
    expect(outcome.loaded).toHaveLength(1);
  });

  it('never loads a tool the load filter denies, nor one search would not show', async () => {
    const asked: string[] = [];
    const session = engineFor({
      filter: ({ toolName, phase }) => {
        asked.push(`${phase}:${toolName}`);
        if (phase === 'load') return toolName !== 'github_create_issue';
        return toolName !== 'github_list_issues';
      },
    }).createSession({ threadId: 't' });
    const outcome = await preselectTools(session, 'github issue repository', { minScore: 0 });
    expect(outcome.loaded).toEqual([]);
    expect(asked).toContain('load:github_create_issue');
    expect(asked).toContain('search:github_list_issues');
  });

  it('ranks deferred tools too, resolving only those it loads', async () => {
    const resolved: string[] = [];
    const session = engineFor({
      deferredTools: () => ({
        linear_create_issue: {
          id: 'linear_create_issue',
          description: 'Create an issue in Linear',
          resolve: () => {
            resolved.push('linear_create_issue');
            return { description: 'linear' };
          },
        },
        linear_archive: {
          id: 'linear_archive',
          description: 'Archive a Linear project',
          resolve: () => {
            resolved.push('linear_archive');
            return { description: 'archive' };
          },
        },
      }),
    }).createSession({ threadId: 't' });
    const outcome = await preselectTools(session, 'create a linear issue', {
      minScore: 0,
      maxTools: 1,
    });
    expect(outcome.loaded).toEqual(['linear_create_issue']);
    expect(resolved).toEqual(['linear_create_issue']);
  });

  it('refuses a minScore that is not a number and a maxTools that is not a positive integer', async () => {
    const session = engineFor().createSession();
    await expect(preselectTools(session, 'x', { minScore: Number.NaN })).rejects.toThrow(
      RangeError,
    );
    await expect(preselectTools(session, 'x', { minScore: 0, maxTools: 0 })).rejects.toThrow(
      'maxTools must be an integer >= 1',
    );
  });
});

describe('preloadTools', () => {
  it('loads known tools through the load filter and reports the rest as skipped', async () => {
    const session = engineFor({
      filter: ({ toolName }) => toolName !== 'github_create_issue',
    }).createSession({ threadId: 't' });
    const outcome = await preloadTools(session, [
      'github_create_issue',
      'github_list_issues',
      'no_such_tool',
    ]);
    expect(outcome).toEqual({
      loaded: ['github_list_issues'],
      alreadyLoaded: [],
      skipped: ['github_create_issue', 'no_such_tool'],
      evicted: [],
    });
    expect(await preloadTools(session, ['github_list_issues'])).toMatchObject({
      loaded: [],
      alreadyLoaded: ['github_list_issues'],
    });
  });

  it('reports a failing store instead of throwing', async () => {
    const broken: LoadedToolsStore = {
      get: async () => ({ tools: [] }),
      set: async () => {
        throw new Error('redis is down');
      },
      delete: async () => undefined,
    };
    const session = engineFor({ storage: broken }).createSession({ threadId: 't' });
    const outcome = await preloadTools(session, ['send_email']);
    expect(outcome.loaded).toEqual([]);
    expect(outcome.error).toBeInstanceOf(Error);
  });

  it('skips a deferred tool whose resolve fails and loads the others', async () => {
    const session = engineFor({
      deferredTools: () => ({
        mail: {
          id: 'mail',
          resolve: () => {
            throw new Error('token revoked');
          },
        },
      }),
    }).createSession({ threadId: 't' });
    const outcome = await preloadTools(session, ['mail', 'send_email']);
    expect(outcome.loaded).toEqual(['send_email']);
    expect(outcome.skipped).toEqual(['mail']);
    expect(String(outcome.error)).toContain('token revoked');
  });
});
