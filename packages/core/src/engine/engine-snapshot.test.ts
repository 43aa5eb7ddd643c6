import { describe, expect, it } from 'vitest';
import type { SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { SnapshotError } from '../search/snapshot-ranking';
import { ToolIndex } from '../search/tool-index';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
}

const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  github_create_issue: { description: 'Open an issue in a GitHub repository' },
  send_email: { description: 'Send an email to a recipient' },
};

function engineFor(options: Partial<ToolSearchEngineOptions<FakeTool>> = {}) {
  return createToolSearchEngine<FakeTool>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

async function search(engine: ReturnType<typeof engineFor>, query: string) {
  const session = engine.createSession();
  const tool = session.metaTools.find((candidate) => candidate.name === 'search_tools')!;
  return ((await tool.execute({ query })) as SearchToolsOutput).results;
}

describe('createToolSearchEngine({ snapshot })', () => {
  it('starts from a snapshot and searches like an engine that indexed the catalog', async () => {
    const snapshot = engineFor().index.toSnapshot();
    const restored = engineFor({ snapshot });
    expect(restored.index.size).toBe(3);
    for (const query of ['weather', 'open github issue', 'email someone']) {
      expect(await search(restored, query)).toEqual(await search(engineFor(), query));
    }
  });

  it('indexes the catalog and reports it when the snapshot has other tools', async () => {
    const errors: { operation: string; error: unknown }[] = [];
    const snapshot = new ToolIndex([
      { id: 'get_weather', description: 'Current weather conditions for a city' },
      { id: 'old_tool', description: 'Gone from the catalog' },
    ]).toSnapshot();
    const engine = engineFor({ snapshot, onError: (event) => errors.push(event) });
    expect(engine.index.ids()).toEqual(Object.keys(catalog));
    expect((await search(engine, 'email'))[0]?.name).toBe('send_email');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.operation).toBe('snapshot');
    expect(String(errors[0]!.error)).toMatch(
      /2 catalog tools are not in it, such as "github_create_issue".*1 of its tools are not in the catalog/,
    );
  });

  it('refuses a snapshot built with other ranking options than the engine’s', () => {
    const snapshot = engineFor({ index: { k1: 1.8 } }).index.toSnapshot();
    expect(() => engineFor({ snapshot })).toThrow(SnapshotError);
    expect(() => engineFor({ snapshot })).toThrow(/k1: snapshot 1.8, options 1.2/);
    expect(engineFor({ snapshot, index: { k1: 1.8 } }).index.size).toBe(3);
  });

  it('refuses damaged bytes with a clear error', () => {
    const snapshot = engineFor().index.toSnapshot().slice(0, 100);
    expect(() => engineFor({ snapshot })).toThrow(/damaged or truncated/);
  });
});
