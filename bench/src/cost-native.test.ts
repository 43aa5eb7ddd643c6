import { createLargeCatalog } from 'tool-search-testing/large-catalog';
import { describe, expect, it } from 'vitest';
import { createAnthropicNativeRow } from './cost-anthropic-native';
import type { RequestBody } from './cost-native';
import { createOpenAINativeRow } from './cost-openai-native';
import { type PlanStep, pickQueries, planConversation } from './cost-plan';
import { ANTHROPIC_CACHE, OPENAI_CACHE } from './cost-price-lists';
import { type CachePricing, prefixChange, priceConversation } from './cost-pricing';
import { ConversationRecorder } from './cost-recorder';
import { BlockTokenizer, requestTokens } from './cost-request';
import type { CostRow } from './cost-row';
import { ScriptedConversation } from './cost-script';
import type { DataSet } from './data';

/** Generous: only a hung test should reach it (two SDKs over 1,000 tools on a busy machine). */
const HANG_GUARD_MS = 60_000;

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

const DATA: DataSet = {
  name: 'mini',
  source: 'hand-made',
  file: 'mini.json',
  tools: [
    {
      id: 'get_weather',
      description: 'Current weather forecast for a city',
      inputSchema: WEATHER_SCHEMA,
    },
    {
      // A name the providers refuse: the rows expose it as `mail_send_email`.
      id: 'mail.send_email',
      description: 'Send an email message to a recipient',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    },
    { id: 'create_invoice', description: 'Create an invoice for a customer', inputSchema: {} },
    { id: 'book_meeting', description: 'Book a meeting room', inputSchema: { type: 'object' } },
  ],
  queries: [
    { query: 'weather forecast for Paris', relevant: ['get_weather'] },
    { query: 'send an email to Bob', relevant: ['mail.send_email'] },
    { query: 'book a meeting room', relevant: ['book_meeting'] },
  ],
};

/**
 * Each cache read from the first token on, without the provider's tool-use prompt: the
 * arithmetic below then holds for a small prompt's own tokens.
 */
const ANTHROPIC_FROM_ZERO: CachePricing = {
  ...ANTHROPIC_CACHE,
  minimumCacheableTokens: 0,
  toolUsePromptTokens: 0,
};
const OPENAI_FROM_ZERO: CachePricing = {
  ...OPENAI_CACHE,
  minimumCachedTokens: 0,
  cacheIncrement: 1,
  toolUsePromptTokens: 0,
};

const PROVIDERS = [
  { provider: 'anthropic', createRow: createAnthropicNativeRow, pricing: ANTHROPIC_FROM_ZERO },
  { provider: 'openai', createRow: createOpenAINativeRow, pricing: OPENAI_FROM_ZERO },
] as const;

async function play(
  createRow: (options: { onRequest: (body: RequestBody) => void }) => CostRow,
  options: { data?: DataSet; steps?: number; loads?: number } = {},
) {
  const data = options.data ?? DATA;
  const bodies: RequestBody[] = [];
  const row = createRow({ onRequest: (body) => bodies.push(body) });
  const plan = planConversation(options.steps ?? 14, options.loads ?? 2) as PlanStep[];
  const tools = new Map(data.tools.map((tool) => [tool.id, tool]));
  const prepared = await row.prepare(data);
  const conversation = new ScriptedConversation({
    plan,
    queries: pickQueries(data.queries, tools, plan),
    exposure: row.exposure,
    tools,
    ...(prepared.nameOf && { nameOf: prepared.nameOf }),
    ...(prepared.idOf && { idOf: prepared.idOf }),
  });
  const tokenizer = new BlockTokenizer();
  const recorder = new ConversationRecorder(tokenizer, conversation);
  await prepared.play(conversation, recorder);
  await prepared.close();
  const changes = recorder.steps
    .slice(1)
    .map((step, index) => prefixChange(recorder.steps[index]!.request, step.request));
  return { row, bodies, conversation, steps: recorder.steps, changes, tokenizer };
}

describe('bench:cost provider-native rows', { timeout: HANG_GUARD_MS }, () => {
  it('sends the Anthropic SDK the same deferred tools on every request', async () => {
    const { bodies, conversation, steps, changes } = await play(createAnthropicNativeRow);
    // Each load's search already loaded its tool: 14 planned steps, 2 of them need no call.
    expect(steps).toHaveLength(12);
    expect(bodies).toHaveLength(12);
    const tools = bodies[0]!.tools as { name: string; defer_loading?: boolean }[];
    expect(tools.map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['search_tools', undefined],
      ['get_weather', true],
      ['mail_send_email', true],
      ['create_invoice', true],
      ['book_meeting', true],
    ]);
    for (const body of bodies) expect(body.tools).toEqual(tools);
    expect(changes.every((change) => change === 'extends')).toBe(true);
    expect(conversation.tally).toMatchObject({
      loads: 2,
      missedLoads: 0,
      searchMisses: 0,
      calls: 5,
      validCalls: 5,
    });
    const references = bodies.flatMap((body) =>
      (body.messages as { content: unknown }[]).flatMap(({ content }) =>
        Array.isArray(content)
          ? content.flatMap((block: { content?: unknown }) =>
              Array.isArray(block.content) ? block.content : [],
            )
          : [],
      ),
    );
    expect(references).toContainEqual({ type: 'tool_reference', tool_name: 'mail_send_email' });
  });

  it('sends the OpenAI SDK the same tool_search and deferred functions on every request', async () => {
    const { bodies, conversation, steps, changes } = await play(createOpenAINativeRow);
    expect(steps).toHaveLength(12);
    const tools = bodies[0]!.tools as Record<string, unknown>[];
    expect(tools[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(tools.slice(1).map((tool) => [tool.type, tool.name, tool.defer_loading])).toEqual([
      ['function', 'get_weather', true],
      ['function', 'mail_send_email', true],
      ['function', 'create_invoice', true],
      ['function', 'book_meeting', true],
    ]);
    for (const body of bodies) expect(body.tools).toEqual(tools);
    expect(changes.every((change) => change === 'extends')).toBe(true);
    expect(conversation.tally).toMatchObject({ loads: 2, missedLoads: 0, calls: 5, validCalls: 5 });
    const outputs = bodies.at(-1)!.input as { type?: string; tools?: { name: string }[] }[];
    const loaded = outputs
      .filter((item) => item.type === 'tool_search_output')
      .flatMap((item) => item.tools!.map((tool) => tool.name));
    expect(loaded).toContain('mail_send_email');
    expect(loaded).toContain('get_weather');
  });

  for (const { provider, createRow, pricing } of PROVIDERS) {
    it(`${provider}: puts a loaded definition in the conversation once and reads it from the cache afterwards`, async () => {
      const { steps, tokenizer } = await play(createRow);
      const definition = tokenizer.block(
        JSON.stringify({
          name: 'get_weather',
          description: 'Current weather forecast for a city',
          input_schema: WEATHER_SCHEMA,
        }),
      ).key;
      const holding = steps.map(
        ({ request }) => request.blocks.filter((block) => block.key === definition).length,
      );
      const first = holding.indexOf(1);
      // Absent until the first search's result, then in every request once, after the tools.
      expect(first).toBeGreaterThan(0);
      expect(holding.slice(0, first).every((count) => count === 0)).toBe(true);
      expect(holding.slice(first).every((count) => count === 1)).toBe(true);
      for (const { request } of steps) {
        const tools = request.blocks.slice(0, request.toolBlocks);
        expect(tools.some((block) => block.key === definition)).toBe(false);
      }
      // Every request extends the one before: each token is paid in full once (written, or
      // sent uncached) and read from the cache by every later request.
      const costs = priceConversation(steps, pricing);
      let expected = 0;
      let previous = 0;
      for (const [index, step] of steps.entries()) {
        const tokens = requestTokens(step.request);
        expect(costs[index]!.cachedTokens).toBe(previous);
        const fresh = tokens - previous;
        expected +=
          pricing.kind === 'anthropic'
            ? previous * pricing.readMultiplier +
              fresh * pricing.writeMultiplier +
              step.outputTokens * pricing.outputMultiplier
            : previous * pricing.cachedMultiplier +
              fresh +
              step.outputTokens * pricing.outputMultiplier;
        previous = tokens;
      }
      const total = costs.reduce((sum, cost) => sum + cost.priced, 0);
      expect(total).toBeCloseTo(expected, 6);
    });
  }

  it('keeps 1,000 deferred tools out of the Anthropic prompt and their schemas out of the OpenAI one', async () => {
    const catalog = createLargeCatalog();
    const data: DataSet = {
      name: 'large',
      source: 'tool-search-testing',
      file: 'large.json',
      tools: catalog.map(({ id, description, inputSchema }) => ({ id, description, inputSchema })),
      queries: [
        { query: 'create github issue', relevant: ['github__create_issue'] },
        {
          query: 'share a slack channel message with a teammate',
          relevant: ['slack__share_channel_message'],
        },
      ],
    };
    expect(data.tools.some((tool) => tool.id === 'slack__share_channel_message')).toBe(true);
    const anthropic = await play(createAnthropicNativeRow, { data });
    const openai = await play(createOpenAINativeRow, { data });
    for (const run of [anthropic, openai]) {
      expect((run.bodies[0]!.tools as unknown[]).length).toBe(1_001);
      expect(run.conversation.tally).toMatchObject({ loads: 2, missedLoads: 0 });
      expect(run.changes.every((change) => change === 'extends')).toBe(true);
    }
    // Anthropic: the prompt's tools are the search tool alone, far below the cache minimum.
    expect(anthropic.steps[0]!.request.toolBlocks).toBe(1);
    expect(requestTokens(anthropic.steps[0]!.request)).toBeLessThan(
      ANTHROPIC_CACHE.minimumCacheableTokens,
    );
    // OpenAI: every deferred function by name and description, no schema.
    const [search, ...deferred] = openai.steps[0]!.request.blocks.slice(0, 1_001);
    expect(search).toBeDefined();
    const github = openai.tokenizer.block(
      JSON.stringify({
        name: 'github__create_issue',
        description: 'Create a new issue in GitHub.',
      }),
    );
    expect(deferred.some((block) => block.key === github.key)).toBe(true);
    const [first] = priceConversation(openai.steps, OPENAI_CACHE);
    const anthropicFirst = priceConversation(anthropic.steps, ANTHROPIC_CACHE)[0]!;
    expect(first!.inputTokens).toBeGreaterThan(10 * anthropicFirst.inputTokens);
  });
});
