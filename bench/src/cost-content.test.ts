import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import {
  ANSWER_TOKENS,
  ConversationContent,
  contentPool,
  proseSentences,
  USER_TURN_TOKENS,
} from './cost-content';
import { collectMcpOutputs, type McpOutput, resultText } from './cost-mcp-outputs';
import { drawLogNormal, seededRandom } from './cost-random';

/** Three node processes on a busy machine: far more than they take. */
const SERVERS_TIMEOUT_MS = 60_000;
/** Draws for the distribution checks: enough for a mean within a few percent. */
const DRAWS = 20_000;

const REQUESTS = [
  'What is the weather in Paris tomorrow?',
  'Send an email to Bob about the invoice.',
  'Book a room for ten people on Friday.',
  'Find the cheapest flight from Lyon to Oslo.',
];
const DOCUMENT = [
  '# Title',
  '',
  'The server lists its tools and their schemas. Clients call them by name.',
  '',
  '```js',
  'const ignored = true;',
  '```',
  '',
  '- a list item is not prose.',
  '',
  'Results come back as text content. Errors set isError.',
].join('\n');
const OUTPUTS: McpOutput[] = [
  { server: 'filesystem', tool: 'read_text_file', file: 'pkg/README.md', text: DOCUMENT },
  { server: 'filesystem', tool: 'list_directory', text: '[FILE] index.js\n[DIR] tools' },
];

describe('seededRandom and drawLogNormal', () => {
  it('repeats a key and parts ways on another', () => {
    const a = seededRandom('seed/tool result/1');
    const b = seededRandom('seed/tool result/1');
    const c = seededRandom('seed/tool result/2');
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(c()).not.toBe(first[0]);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it('draws with the documented mean, within the clipping range', () => {
    for (const distribution of [USER_TURN_TOKENS, ANSWER_TOKENS]) {
      const random = seededRandom(`mean ${distribution.meanTokens}`);
      let sum = 0;
      for (let draw = 0; draw < DRAWS; draw++) {
        const value = drawLogNormal(distribution, random);
        expect(value).toBeGreaterThanOrEqual(distribution.minTokens);
        expect(value).toBeLessThanOrEqual(distribution.maxTokens);
        sum += value;
      }
      // Clipping the long tail lowers the mean a little.
      expect(sum / DRAWS).toBeGreaterThan(distribution.meanTokens * 0.85);
      expect(sum / DRAWS).toBeLessThan(distribution.meanTokens * 1.05);
    }
  });
});

describe('ConversationContent', () => {
  const pool = contentPool(OUTPUTS, REQUESTS);

  it('takes prose sentences from the markdown outputs only, without code or lists', () => {
    expect(proseSentences([DOCUMENT])).toEqual([
      'The server lists its tools and their schemas.',
      'Clients call them by name.',
      'Results come back as text content.',
      'Errors set isError.',
    ]);
    expect(pool.toolResults).toEqual(OUTPUTS.map((output) => output.text));
  });

  it('draws the same content for the same seed and step, whatever the order', () => {
    const one = new ConversationContent({ mode: 'real', pool, seed: 's' });
    const two = new ConversationContent({ mode: 'real', pool, seed: 's' });
    const steps = [0, 5, 9, 3];
    const forward = steps.map((step) => [one.answer(step), one.toolResult(step)]);
    const backward = [...steps].reverse().map((step) => [two.answer(step), two.toolResult(step)]);
    expect(backward.reverse()).toEqual(forward);
    expect(one.userMessage(2, REQUESTS[0])).toBe(two.userMessage(2, REQUESTS[0]));
  });

  it('makes user turns of real requests, starting with the one searched for, of varied length', () => {
    const content = new ConversationContent({ mode: 'real', pool, seed: 'users' });
    const lengths = new Set<number>();
    for (let turn = 0; turn < 50; turn++) {
      const message = content.userMessage(turn, REQUESTS[1]);
      expect(message.startsWith(REQUESTS[1]!)).toBe(true);
      for (const part of message.slice(REQUESTS[1]!.length).split(/(?<=[.?!]) /)) {
        if (part.trim() !== '') expect(REQUESTS).toContain(part.trim());
      }
      lengths.add(encode(message).length);
    }
    expect(lengths.size).toBeGreaterThan(5);
    expect(content.userMessage(0, undefined).length).toBeGreaterThan(0);
  });

  it('writes answers of real text, not one repeated token', () => {
    const content = new ConversationContent({ mode: 'real', pool, seed: 'answers' });
    const answer = content.answer(4);
    const tokens = encode(answer);
    expect(new Set(tokens).size).toBeGreaterThan(tokens.length / 4);
  });

  it('keeps the minimal script: the request, one sentence, no tool text', () => {
    const content = ConversationContent.minimal();
    expect(content.userMessage(0, 'mail Bob')).toBe('mail Bob');
    expect(content.userMessage(1, undefined)).toBe('Please do that again with the tools you have.');
    expect(content.answer(3)).toBe('Here is the answer to step 4.');
    expect(content.toolResult(2)).toBeUndefined();
  });

  it('refuses real content without tool results', () => {
    expect(() => new ConversationContent({ mode: 'real', seed: 'x' })).toThrow(/pool/);
  });
});

describe('collectMcpOutputs', { timeout: SERVERS_TIMEOUT_MS }, () => {
  it('gets real outputs of hundreds to thousands of tokens from the three npm servers', async () => {
    const outputs = await collectMcpOutputs();
    const servers = new Set(outputs.map((output) => output.server));
    expect(servers).toEqual(new Set(['filesystem', 'memory', 'everything']));
    expect(outputs.every((output) => output.text.length > 0)).toBe(true);
    const sizes = outputs.map((output) => encode(output.text).length).sort((a, b) => a - b);
    const median = sizes[Math.floor(sizes.length / 2)]!;
    expect(median).toBeGreaterThan(200);
    expect(median).toBeLessThan(2_000);
    expect(sizes.at(-1)!).toBeGreaterThan(3_000);
    // The same workload gives the same outputs: the files are pinned.
    const again = await collectMcpOutputs();
    expect(again.map((output) => encode(output.text).length).sort((a, b) => a - b)).toEqual(sizes);
  });

  it("turns a result's text parts into text and other parts into their JSON", () => {
    expect(
      resultText({
        content: [
          { type: 'text', text: 'Here are 1 resource links:' },
          { type: 'resource_link', uri: 'demo://a', name: 'A' },
        ],
      }),
    ).toBe('Here are 1 resource links:\n{"type":"resource_link","uri":"demo://a","name":"A"}');
  });
});
