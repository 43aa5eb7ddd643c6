import { describe, expect, it } from 'vitest';
import { ANTHROPIC_1H_CACHE, ANTHROPIC_CACHE, OPENAI_CACHE } from './cost-price-lists';
import {
  type AnthropicCachePricing,
  type OpenAiCachePricing,
  type PricedStep,
  prefixChange,
  priceConversation,
} from './cost-pricing';
import { BlockTokenizer, type TokenizedBlock, type TokenizedRequest } from './cost-request';

/** Hand-made blocks: a name and a token count, so the arithmetic below is exact. */
function block(name: string, tokens: number): TokenizedBlock {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  // Distinct names get distinct token values, so two blocks share no token but by design.
  return { key: hash, tokens: Array.from({ length: tokens }, (_, index) => hash * 10_000 + index) };
}

function request(tools: TokenizedBlock[], system: TokenizedBlock[], messages: TokenizedBlock[]) {
  return {
    blocks: [...tools, ...system, ...messages],
    toolBlocks: tools.length,
    systemBlocks: system.length,
  } satisfies TokenizedRequest;
}

const steps = (...requests: TokenizedRequest[]): PricedStep[] =>
  requests.map((request) => ({ request, outputTokens: 0 }));

/** The price lists without their tool-use prompts: the arithmetic below counts the blocks alone. */
const ANTHROPIC: AnthropicCachePricing = { ...ANTHROPIC_CACHE, toolUsePromptTokens: 0 };
const OPENAI: OpenAiCachePricing = { ...OPENAI_CACHE, toolUsePromptTokens: 0 };

const TOOLS = [block('tool-a', 1500), block('tool-b', 500)];
const SYSTEM = [block('system', 100)];
const USER = block('user', 50);
const CALL = block('call', 20);
const RESULT = block('result', 30);

describe('priceConversation (Anthropic)', () => {
  it('writes the first request and reads it back when the next one extends it', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const second = request(TOOLS, SYSTEM, [USER, CALL, RESULT]);
    const [one, two] = priceConversation(steps(first, second), ANTHROPIC);
    expect(one).toMatchObject({ inputTokens: 2150, cachedTokens: 0, writtenTokens: 2150 });
    expect(one!.priced).toBeCloseTo(2150 * 1.25);
    expect(two).toMatchObject({ inputTokens: 2200, cachedTokens: 2150, writtenTokens: 50 });
    expect(two!.priced).toBeCloseTo(2150 * 0.1 + 50 * 1.25);
  });

  it('reads nothing when a tool is put before the others', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const second = request([block('tool-new', 200), ...TOOLS], SYSTEM, [USER, CALL, RESULT]);
    const [, two] = priceConversation(steps(first, second), ANTHROPIC);
    expect(two).toMatchObject({ cachedTokens: 0, writtenTokens: 2400 });
  });

  it('reads only the old tools when a tool is appended to them, and rewrites the conversation', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const second = request([...TOOLS, block('tool-new', 200)], SYSTEM, [USER, CALL, RESULT]);
    const [, two] = priceConversation(steps(first, second), ANTHROPIC);
    // The breakpoint at the end of the old tools (2,000 tokens) is an entry the new request reaches.
    expect(two).toMatchObject({ inputTokens: 2400, cachedTokens: 2000, writtenTokens: 400 });
  });

  it('reads the tools and system prompt when only a message changed', () => {
    const first = request(TOOLS, SYSTEM, [USER, CALL]);
    const second = request(TOOLS, SYSTEM, [block('other user', 50), CALL]);
    const [, two] = priceConversation(steps(first, second), ANTHROPIC);
    expect(two).toMatchObject({ cachedTokens: 2100, writtenTokens: 70 });
  });

  it('neither writes nor reads a prefix below the minimum cacheable length', () => {
    const small = [block('meta-tool', 600)];
    const first = request(small, SYSTEM, [USER]);
    const second = request(small, SYSTEM, [USER, CALL, RESULT]);
    const costs = priceConversation(steps(first, second), ANTHROPIC);
    for (const cost of costs) {
      expect(cost.cachedTokens).toBe(0);
      expect(cost.writtenTokens).toBe(0);
      expect(cost.priced).toBe(cost.inputTokens);
    }
  });

  it('starts reading once the conversation crosses the minimum', () => {
    const small = [block('meta-tool', 900)];
    const first = request(small, SYSTEM, [USER]); // 1,050 tokens: written
    const second = request(small, SYSTEM, [USER, CALL, RESULT]);
    const [one, two] = priceConversation(steps(first, second), ANTHROPIC);
    expect(one).toMatchObject({ cachedTokens: 0, writtenTokens: 1050 });
    expect(two).toMatchObject({ cachedTokens: 1050, writtenTokens: 50 });
  });

  it('does not reach an entry more than the look-back window before every breakpoint', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const many = Array.from({ length: 25 }, (_, index) => block(`message ${index}`, 10));
    // The previous request's end is 25 blocks before the new end; tools+system are still reachable.
    const second = request(TOOLS, SYSTEM, [USER, ...many]);
    const [, two] = priceConversation(steps(first, second), ANTHROPIC);
    expect(two).toMatchObject({ cachedTokens: 2100, writtenTokens: 300 });
  });

  it('prices output tokens at the output multiplier', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const [one] = priceConversation([{ request: first, outputTokens: 10 }], ANTHROPIC);
    expect(one!.priced).toBeCloseTo(2150 * 1.25 + 10 * 5);
  });
});

describe('priceConversation (OpenAI)', () => {
  it('caches the shared prefix in 128-token increments from 1,024, with no write premium', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const second = request(TOOLS, SYSTEM, [USER, CALL, RESULT]);
    const [one, two] = priceConversation(steps(first, second), OPENAI);
    expect(one).toMatchObject({ inputTokens: 2150, cachedTokens: 0, priced: 2150 });
    // 2,150 shared tokens: 1,024 + 8 × 128 = 2,048 cached.
    expect(two).toMatchObject({ inputTokens: 2200, cachedTokens: 2048, writtenTokens: 0 });
    expect(two!.priced).toBeCloseTo(2048 * 0.1 + 152);
  });

  it('caches nothing below 1,024 shared tokens', () => {
    const first = request([block('meta-tool', 1000)], [], [USER]);
    const second = request([block('other tool', 1000)], [], [USER]);
    const third = request([block('other tool', 1000)], [], [USER, CALL]);
    const [, two, three] = priceConversation(steps(first, second, third), OPENAI);
    expect(two!.cachedTokens).toBe(0);
    expect(three!.cachedTokens).toBe(1024);
  });

  it('keeps the part of a changed tools list that still matches, token by token', () => {
    const first = request([block('tool-a', 1500)], SYSTEM, [USER]);
    const grown: TokenizedBlock = {
      key: 999,
      tokens: [...block('tool-a', 1500).tokens.slice(0, 1300), 1, 2, 3],
    };
    const second = request([grown], SYSTEM, [USER]);
    const [, two] = priceConversation(steps(first, second), OPENAI);
    expect(two!.cachedTokens).toBe(1280);
  });
});

describe('priceConversation (what every list adds)', () => {
  it("adds the provider's tool-use prompt before the tools, written and then read with them", () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const second = request(TOOLS, SYSTEM, [USER, CALL, RESULT]);
    const prompt = ANTHROPIC_CACHE.toolUsePromptTokens;
    const [one, two] = priceConversation(steps(first, second), ANTHROPIC_CACHE);
    expect(one).toMatchObject({ inputTokens: 2150 + prompt, writtenTokens: 2150 + prompt });
    expect(two).toMatchObject({ cachedTokens: 2150 + prompt, writtenTokens: 50 });
    const [openai] = priceConversation(steps(first), OPENAI_CACHE);
    expect(openai!.inputTokens).toBe(2150 + OPENAI_CACHE.toolUsePromptTokens);
  });

  it('adds no tool-use prompt to a request without tools', () => {
    const [one] = priceConversation(steps(request([], SYSTEM, [USER])), ANTHROPIC_CACHE);
    expect(one!.inputTokens).toBe(150);
  });

  it('charges every token of a request above the long-context threshold at the premium', () => {
    const huge = [block('huge tool list', 250_000)];
    const below = [block('large tool list', 150_000)];
    const [over] = priceConversation(
      [{ request: request(huge, [], [USER]), outputTokens: 10 }],
      ANTHROPIC,
    );
    expect(over!.priced).toBeCloseTo(250_050 * 1.25 * 2 + 10 * 5 * 1.5);
    const [under] = priceConversation(
      [{ request: request(below, [], [USER]), outputTokens: 10 }],
      ANTHROPIC,
    );
    expect(under!.priced).toBeCloseTo(150_050 * 1.25 + 10 * 5);
    const [openai] = priceConversation(
      [{ request: request(huge, [], [USER]), outputTokens: 10 }],
      OPENAI,
    );
    // OpenAI's threshold is 272K: 250,050 tokens are below it.
    expect(openai!.priced).toBeCloseTo(250_050 + 10 * 6);
  });

  it('writes at 2× base input with the 1-hour cache', () => {
    const [one] = priceConversation(steps(request(TOOLS, SYSTEM, [USER])), {
      ...ANTHROPIC_1H_CACHE,
      toolUsePromptTokens: 0,
    });
    expect(one!.priced).toBeCloseTo(2150 * 2);
  });

  it('finds nothing cached at a turn after a pause longer than the cache lives', () => {
    const first = request(TOOLS, SYSTEM, [USER]);
    const second = request(TOOLS, SYSTEM, [USER, CALL, RESULT]);
    const third = request(TOOLS, SYSTEM, [USER, CALL, RESULT, block('next turn', 40)]);
    const conversation: PricedStep[] = [
      { request: first, outputTokens: 0, turnStart: true },
      { request: second, outputTokens: 0 },
      { request: third, outputTokens: 0, turnStart: true },
    ];
    const kept = priceConversation(conversation, ANTHROPIC);
    const expired = priceConversation(conversation, ANTHROPIC, { cacheExpiresEachTurn: true });
    expect(kept[2]).toMatchObject({ cachedTokens: 2200, writtenTokens: 40 });
    expect(expired[1]).toMatchObject({ cachedTokens: 2150 });
    expect(expired[2]).toMatchObject({ cachedTokens: 0, writtenTokens: 2240 });
    const openai = priceConversation(conversation, OPENAI, { cacheExpiresEachTurn: true });
    expect(openai[1]!.cachedTokens).toBeGreaterThan(0);
    expect(openai[2]).toMatchObject({ cachedTokens: 0, priced: 2240 });
  });
});

describe('prefixChange', () => {
  it('tells an extension from a changed tools list and from a changed earlier message', () => {
    const base = request(TOOLS, SYSTEM, [USER]);
    expect(prefixChange(base, request(TOOLS, SYSTEM, [USER, CALL]))).toBe('extends');
    expect(prefixChange(base, request([...TOOLS, block('x', 5)], SYSTEM, [USER, CALL]))).toBe(
      'tools',
    );
    expect(prefixChange(base, request(TOOLS.slice(1), SYSTEM, [USER]))).toBe('tools');
    expect(prefixChange(base, request(TOOLS, [block('new system', 100)], [USER]))).toBe('earlier');
    expect(prefixChange(base, request(TOOLS, SYSTEM, [CALL]))).toBe('earlier');
  });
});

describe('BlockTokenizer', () => {
  it('puts the tools first, then the system prompt, then the messages, and reuses equal blocks', () => {
    const tokenizer = new BlockTokenizer();
    const tool = { name: 'get_weather', description: 'Weather', inputSchema: { type: 'object' } };
    const first = tokenizer.request({
      tools: [tool],
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    const second = tokenizer.request({
      tools: [{ ...tool }],
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      ],
    });
    expect(first).toMatchObject({ toolBlocks: 1, systemBlocks: 1 });
    expect(first.blocks).toHaveLength(3);
    expect(second.blocks.slice(0, 3).map((item) => item.key)).toEqual(
      first.blocks.map((item) => item.key),
    );
    expect(prefixChange(first, second)).toBe('extends');
    expect(first.blocks[1]!.tokens.length).toBeGreaterThan(0);
  });
});
