import fc from 'fast-check';
import { createLargeCatalog, type LargeCatalogTool, propertyRuns } from 'tool-search-testing';
import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
import { describe, expect, it } from 'vitest';
import { createToolSearchEngine, type ToolFilter } from '../index';
import { createAnthropicToolSearch } from './anthropic-tool-search';
import { createOpenAIToolSearch, loadedNames } from './openai-tool-search';
import { searchAndLoad } from './search-and-load';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

const catalog = createLargeCatalog(200);
const byId = Object.fromEntries(catalog.map((tool) => [tool.id, tool]));
const words = [
  ...new Set(catalog.flatMap((tool) => tool.id.split(/_+/)).concat(['delete', 'send', 'zzz'])),
];

function engineOf(filter?: ToolFilter<LargeCatalogTool, unknown>, maxLoadedTools?: number) {
  return createToolSearchEngine<LargeCatalogTool>({
    tools: byId,
    describe: (tool) => ({
      id: tool.id,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }),
    ...(filter && { filter }),
    ...(maxLoadedTools !== undefined && { maxLoadedTools }),
  });
}

// A hang guard, not a timing: a real SDK over 1,000 tools on a busy 2-core machine can pass 5 s.
describe('searchAndLoad', { timeout: HANG_GUARD_MS }, () => {
  it('never hands the provider a tool the filter denies, and loads exactly what it hands over', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, async () => {
    // One engine (indexing is the slow part); each run sets the policy and uses threads of its own.
    let refused = new Set<string>();
    let deniedPhases = 'both';
    let run = 0;
    const engine = engineOf(
      ({ toolName, phase }) =>
        !(refused.has(toolName) && (deniedPhases === 'both' || deniedPhases === phase)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...catalog.map((tool) => tool.id)), { maxLength: 40 }),
        fc.constantFrom('search', 'load', 'both'),
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 12 }),
        async (denied, phases, queryWords, limit) => {
          refused = new Set(denied);
          deniedPhases = phases;
          run++;
          const query = queryWords.join(' ');
          const anthropic = await createAnthropicToolSearch(
            engine.createSession({ threadId: `a${run}` }),
          );
          const answer = await anthropic.answer({ id: 't', input: { query, limit } });
          const referenced = Array.isArray(answer.content)
            ? answer.content.map((part) => part.tool_name)
            : [];
          const openai = await createOpenAIToolSearch(
            engine.createSession({ threadId: `o${run}` }),
          );
          const output = await openai.answer({ call_id: 'c', arguments: { query, limit } });
          const returned = loadedNames(output.tools);
          for (const names of [referenced, returned]) {
            expect(names.length).toBeLessThanOrEqual(limit);
            expect(names.filter((name) => refused.has(name))).toEqual([]);
          }
          expect(returned).toEqual(referenced);
          const listed = new Set(anthropic.tools.map((tool) => tool.name));
          expect(referenced.every((name) => listed.has(name))).toBe(true);
          const later = engine.createSession({ threadId: `a${run}` });
          for (const name of referenced) expect(await later.isActive(name)).toBe(true);
        },
      ),
      propertyRuns('native search', 60),
    );
  });

  it('answers bad input with a sentence, never a throw', async () => {
    const session = engineOf().createSession();
    for (const input of [
      null,
      undefined,
      7,
      [],
      'not json',
      '{"query": 3}',
      { query: 5 },
      { query: 'x', limit: 0 },
    ]) {
      const result = await searchAndLoad(session, input);
      expect(result.toolNames).toEqual([]);
      expect(result.message).toMatch(/query/);
    }
    const huge = await searchAndLoad(session, { query: 'github '.repeat(200_000) });
    expect(huge.toolNames[0]).toMatch(/^github__/);
    expect(huge.message.length).toBeLessThan(2_000);
    expect((await searchAndLoad(session, '{"query":"create github issue"}')).toolNames[0]).toBe(
      'github__create_issue',
    );
  });

  it('takes a throwing filter as a denial', async () => {
    const session = engineOf(({ toolName }) => {
      if (toolName.startsWith('github__')) throw new Error('policy service down');
      return true;
    }).createSession();
    const result = await searchAndLoad(session, { query: 'create github issue' });
    expect(result.toolNames.some((name) => name.startsWith('github__'))).toBe(false);
  });

  it('reports what the budget evicted, and says so to the model', async () => {
    const session = engineOf(undefined, 2).createSession({ threadId: 'budget' });
    await searchAndLoad(session, { query: 'create github issue', limit: 2 });
    const second = await searchAndLoad(session, { query: 'create gitlab merge request', limit: 1 });
    expect(second.evicted).toHaveLength(1);
    expect(second.message).toContain('unloaded');
  });
});
