import { describe, expect, it } from 'vitest';
import { emptyTally } from './cost-model-types';
import { PRICE_VARIANTS, type PriceKey } from './cost-price-lists';
import { scenarioTable, tallyNote } from './cost-report';
import type { CostRow, Provider } from './cost-row';
import type { RowResult, Totals } from './cost-run';
import { criteriaTable, summaryTable } from './cost-summary';

/** A result whose priced totals are `priced` (Anthropic) and twice that (OpenAI), per variant. */
function result(options: {
  key: string;
  provider?: Provider;
  priced: number;
  perUse?: number;
  prices?: Partial<Record<PriceKey, number>>;
}): RowResult {
  const row: CostRow = {
    key: options.key,
    label: options.key,
    exposure: options.key === 'every-tool' ? 'every-tool' : 'proxy',
    ...(options.provider && { provider: options.provider }),
    prepare: () => Promise.reject(new Error('not played here')),
  };
  const prices = {} as Record<PriceKey, Totals>;
  for (const variant of PRICE_VARIANTS) {
    const base = variant.provider === 'openai' ? options.priced * 2 : options.priced;
    prices[variant.key] = {
      cached: 100,
      written: 10,
      priced: options.prices?.[variant.key] ?? base,
    };
  }
  return {
    row,
    requests: 3,
    inputTokens: 1_000,
    outputTokens: 20,
    prices,
    toolsChanged: 0,
    earlierChanged: 0,
    tally: { ...emptyTally(), searches: 1, loads: 1, calls: 1, validCalls: 1 },
    requestsPerToolUse: options.perUse,
    firstToolTokens: 0,
    seconds: 0,
  };
}

const RESULTS = [
  result({ key: 'every-tool', priced: 400, perUse: 1 }),
  result({ key: 'anthropic-native', provider: 'anthropic', priced: 100, perUse: 2 }),
  result({ key: 'openai-native', provider: 'openai', priced: 100, perUse: 2 }),
];

function cells(table: string, label: string): string[] {
  const line = table.split('\n').find((row) => row.startsWith(`| ${label} |`))!;
  return line
    .split('|')
    .slice(2, -1)
    .map((cell) => cell.trim());
}

describe('scenarioTable', () => {
  it('prints n/a in the columns of the provider whose API a row does not speak', () => {
    const table = scenarioTable(RESULTS);
    expect(cells(table, 'anthropic-native').slice(4, 10)).toEqual([
      '100 / 10',
      '100',
      '0.25 / 0.25 / 0.25 / 0.25',
      'n/a',
      'n/a',
      '',
    ]);
    expect(cells(table, 'openai-native').slice(4, 10)).toEqual([
      'n/a',
      'n/a',
      '',
      '100',
      '200',
      '0.25 / 0.25',
    ]);
    expect(cells(table, 'every-tool').slice(0, 2)).toEqual(['3', '1.0']);
  });

  it('sets each price variant against the every-tool row under the same variant', () => {
    const every = result({ key: 'every-tool', priced: 400, prices: { 'anthropic-expired': 800 } });
    const proxy = result({
      key: 'ai-sdk-proxy',
      priced: 100,
      prices: { 'anthropic-expired': 400 },
    });
    expect(cells(scenarioTable([every, proxy]), 'ai-sdk-proxy')[6]).toBe(
      '0.25 / 0.25 / 0.50 / 0.25',
    );
  });
});

describe('tallyNote', () => {
  it('counts the searches again by name, the definitions used and the failed tool uses', () => {
    const missed = result({ key: 'ai-sdk-proxy', priced: 1 });
    missed.tally = { ...missed.tally, loads: 3, missedLoads: 1, searchMisses: 2, namedLoads: 1 };
    const defined = result({ key: 'ai-sdk-proxy-defs-3', priced: 1 });
    defined.tally = { ...defined.tally, definitionCalls: 2 };
    const note = tallyNote([missed, defined]);
    expect(note).toContain(
      'ai-sdk-proxy: 2 of 4 tool uses searched again by name (1 then loaded by name); 1 of 4 tool uses failed',
    );
    expect(note).toContain("ai-sdk-proxy-defs-3: 2 tools called from a search answer's definition");
  });
});

describe('summaryTable', () => {
  it("leaves a row out of the other provider's table", () => {
    const labels = RESULTS.map((entry) => entry.row.label);
    const scenarios = [{ label: '10 steps, 3 loads', loads: 3, results: RESULTS }];
    const anthropic = summaryTable(labels, scenarios, 'anthropic');
    expect(cells(anthropic, 'anthropic-native')).toEqual(['0.25×']);
    expect(anthropic).not.toContain('openai-native');
    const openai = summaryTable(labels, scenarios, 'openai');
    expect(cells(openai, 'openai-native')).toEqual(['0.25×']);
    expect(openai).not.toContain('anthropic-native');
  });
});

describe('criteriaTable', () => {
  const keys = { proxy: ['ai-sdk-proxy', 'mcp-proxy'], defaults: ['ai-sdk-defaults'] };

  it('reads each criterion off its worst row and marks it met or not', () => {
    const results = [
      result({ key: 'every-tool', priced: 1_000 }),
      result({ key: 'mastra-builtin', priced: 200 }),
      result({ key: 'anthropic-native', provider: 'anthropic', priced: 100 }),
      result({ key: 'ai-sdk-proxy', priced: 104, perUse: 2 }),
      result({ key: 'mcp-proxy', priced: 110, perUse: 3 }),
      // Below every tool under Anthropic's list, above it under OpenAI's: not met.
      result({ key: 'ai-sdk-defaults', priced: 900, prices: { openai: 2_500 } }),
    ];
    const table = criteriaTable([{ label: '50 steps, 10 loads', loads: 10, results }], keys);
    expect(cells(table, '50 steps, 10 loads')).toEqual([
      '3.0 ✗ (mcp-proxy)',
      '1.100 ✗ (mcp-proxy)',
      '0.55 ✓ (mcp-proxy)',
      '1.25 ✗ (ai-sdk-defaults)',
    ]);
  });

  it('applies only the defaults criterion to a conversation without loads', () => {
    const results = [
      result({ key: 'every-tool', priced: 1_000 }),
      result({ key: 'ai-sdk-proxy', priced: 100 }),
      result({ key: 'ai-sdk-defaults', priced: 1_000 }),
    ];
    const table = criteriaTable([{ label: 'chat', loads: 0, results }], keys);
    expect(cells(table, 'chat')).toEqual(['—', '—', '—', '1.00 ✓ (ai-sdk-defaults)']);
  });
});
