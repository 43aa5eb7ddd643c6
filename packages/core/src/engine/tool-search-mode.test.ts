import { describe, expect, it } from 'vitest';
import { estimateTokens, toolWeight } from '../meta-tools/tool-weight';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolFilterArgs, ToolSearchEngineOptions, ToolSearchMode } from './types';
import { DEFAULT_TOOL_SEARCH_THRESHOLD } from './types';

interface FakeTool {
  description: string;
}

const small: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  send_email: { description: 'Send an email to a recipient' },
  create_issue: { description: 'Open an issue in a GitHub repository' },
};

/** A catalog of `count` tools with descriptions of about `words` words each. */
function catalogOf(count: number, words = 40): Record<string, FakeTool> {
  const record: Record<string, FakeTool> = {};
  for (let index = 0; index < count; index++) {
    record[`tool_${index}`] = {
      description: Array.from({ length: words }, (_, word) => `word${(index + word) % 97}`).join(
        ' ',
      ),
    };
  }
  return record;
}

function engineOf(
  tools: Record<string, FakeTool>,
  options: Partial<ToolSearchEngineOptions<FakeTool, unknown>> = {},
) {
  return createToolSearchEngine<FakeTool>({
    tools,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

const weightOf = (tools: Record<string, FakeTool>) =>
  Object.entries(tools).reduce(
    (sum, [id, tool]) => sum + toolWeight({ id, description: tool.description }),
    0,
  );

describe('toolSearch', () => {
  it('searches by default, whatever the catalog weighs', async () => {
    const session = engineOf(small).createSession({});
    expect(await session.usesSearch()).toBe(true);
    const offer = await session.offer();
    expect(offer.search).toBe(true);
    expect(offer.metaTools.map((tool) => tool.name)).toEqual(['search_tools', 'load_tool']);
    expect(offer.tools).toEqual([]);
    expect(offer.instructions).toContain('search_tools');
  });

  it("gives every tool directly, and no meta-tools, under 'auto' while the catalog weighs less than the threshold", async () => {
    const engine = engineOf(small, { toolSearch: 'auto', alwaysLoaded: ['create_issue'] });
    expect(weightOf(small)).toBeLessThan(DEFAULT_TOOL_SEARCH_THRESHOLD);
    const session = engine.createSession({ threadId: 't1' });
    const offer = await session.offer();
    expect(offer.search).toBe(false);
    expect(offer.metaTools).toEqual([]);
    expect(offer.instructions).toBe('');
    // Pinned first, then the catalog's order: the same list at every step.
    const ids = offer.tools.map((tool) => [tool.id, tool.pinned]);
    expect(ids).toEqual([
      ['create_issue', true],
      ['get_weather', false],
      ['send_email', false],
    ]);
    expect(offer.tools[1]?.tool).toBe(small.get_weather);
    expect(await session.isActive('send_email')).toBe(true);
    expect((await session.activeTools()).map((tool) => tool.id)).toEqual(ids.map(([id]) => id));
    const next = engine.createSession({ threadId: 't1' });
    expect((await next.offeredTools()).map((tool) => tool.id)).toEqual(ids.map(([id]) => id));
  });

  it('searches once the tools weigh the threshold or more', async () => {
    const weight = weightOf(small);
    const at = engineOf(small, { toolSearch: { threshold: weight } }).createSession({});
    expect(await at.usesSearch()).toBe(true);
    const above = engineOf(small, { toolSearch: { threshold: weight + 1 } }).createSession({});
    expect(await above.usesSearch()).toBe(false);
    const large = engineOf(catalogOf(400), { toolSearch: 'auto' }).createSession({});
    expect(await large.usesSearch()).toBe(true);
    expect((await large.offer()).tools).toEqual([]);
  });

  it('gives directly only what the filter allows in every phase, and counts only that', async () => {
    const large = catalogOf(400);
    const asked: ToolFilterArgs<FakeTool, unknown>[] = [];
    const engine = engineOf(large, {
      toolSearch: 'auto',
      filter: (args) => {
        asked.push(args);
        // Only three tools in all: a large catalog that this caller sees as a small one.
        if (!['tool_1', 'tool_2', 'tool_3'].includes(args.toolName)) return false;
        return !(args.toolName === 'tool_3' && args.phase === 'load');
      },
    });
    const session = engine.createSession({});
    const offer = await session.offer();
    expect(offer.search).toBe(false);
    expect(offer.tools.map((tool) => tool.id)).toEqual(['tool_1', 'tool_2']);
    expect(new Set(asked.map((args) => args.phase))).toEqual(new Set(['search', 'load', 'active']));
    expect(await session.isActive('tool_3')).toBe(false);
  });

  it('stops asking a permissive filter once the allowed tools reach the threshold', async () => {
    const large = catalogOf(2_000);
    const asked = new Set<string>();
    const engine = engineOf(large, {
      toolSearch: 'auto',
      filter: async ({ toolName }) => {
        asked.add(toolName);
        return true;
      },
    });
    expect(await engine.createSession({}).usesSearch()).toBe(true);
    expect(asked.size).toBeLessThan(200);
  });

  it("counts a request's own tools, a resolved tool in place of the static tool it shadows", async () => {
    const engine = engineOf(small, { toolSearch: 'auto' });
    const own: FakeTool = { description: 'Weather from the caller’s own service' };
    const session = engine.createSession({
      resolvedTools: { get_weather: own, crm_lookup: { description: 'Look up an account' } },
    });
    const tools = (await session.offer()).tools;
    expect(tools.map((tool) => tool.id)).toEqual([
      'get_weather',
      'send_email',
      'create_issue',
      'crm_lookup',
    ]);
    expect(tools[0]?.tool).toBe(own);
    const heavy = engine.createSession({ resolvedTools: catalogOf(400) });
    expect(await heavy.usesSearch()).toBe(true);
  });

  it('gives every tool directly under false, whatever they weigh', async () => {
    const session = engineOf(catalogOf(400), { toolSearch: false }).createSession({});
    const offer = await session.offer();
    expect(offer.search).toBe(false);
    expect(offer.tools).toHaveLength(400);
  });

  it('always searches with deferred tools under auto, and refuses false with them', async () => {
    const deferredTools = () => ({});
    const session = engineOf(small, { toolSearch: 'auto', deferredTools }).createSession({});
    expect(await session.usesSearch()).toBe(true);
    expect(() => engineOf(small, { toolSearch: false, deferredTools })).toThrow(/deferredTools/);
  });

  it('refuses a toolSearch it cannot read', () => {
    for (const toolSearch of ['sometimes', { threshold: -1 }, { threshold: Number.NaN }, {}, null])
      expect(() =>
        engineOf(small, {
          toolSearch: toolSearch as unknown as ToolSearchMode,
        }),
      ).toThrow(/toolSearch must be/);
  });
});

describe('estimateTokens', () => {
  it('counts a token per 4.8 ASCII characters and 0.8 per other character, a surrogate pair once', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a'.repeat(48))).toBe(10);
    expect(estimateTokens('天气'.repeat(5))).toBe(8);
    expect(estimateTokens('😀'.repeat(10))).toBe(8);
  });
});
