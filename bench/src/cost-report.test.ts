import { describe, expect, it } from 'vitest';
import { type RowResult, scenarioTable, summaryTable } from './cost-report';
import type { CostRow, Provider } from './cost-row';

function result(options: { key: string; provider?: Provider; priced: number }): RowResult {
  const row: CostRow = {
    key: options.key,
    label: options.key,
    exposure: options.key === 'every-tool' ? 'every-tool' : 'native',
    ...(options.provider && { provider: options.provider }),
    prepare: () => Promise.reject(new Error('not played here')),
  };
  const totals = { cached: 100, written: 10, priced: options.priced };
  return {
    row,
    requests: 3,
    inputTokens: 1_000,
    outputTokens: 20,
    anthropic: totals,
    openai: { ...totals, priced: options.priced * 2 },
    toolsChanged: 0,
    earlierChanged: 0,
    tally: {
      searches: 1,
      emptySearches: 0,
      searchMisses: 0,
      loads: 1,
      missedLoads: 0,
      calls: 1,
      validCalls: 1,
    },
    seconds: 0,
  };
}

const RESULTS = [
  result({ key: 'every-tool', priced: 400 }),
  result({ key: 'anthropic-native', provider: 'anthropic', priced: 100 }),
  result({ key: 'openai-native', provider: 'openai', priced: 100 }),
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
    expect(cells(table, 'anthropic-native').slice(3, 9)).toEqual([
      '100 / 10',
      '100',
      '0.25×',
      'n/a',
      'n/a',
      '',
    ]);
    expect(cells(table, 'openai-native').slice(3, 9)).toEqual([
      'n/a',
      'n/a',
      '',
      '100',
      '200',
      '0.25×',
    ]);
    expect(cells(table, 'every-tool').slice(3, 9)).toEqual([
      '100 / 10',
      '400',
      '1.00×',
      '100',
      '800',
      '1.00×',
    ]);
  });
});

describe('summaryTable', () => {
  it("leaves a row out of the other provider's table", () => {
    const labels = RESULTS.map((entry) => entry.row.label);
    const scenarios = [{ label: '10 steps, 3 loads', results: RESULTS }];
    const anthropic = summaryTable(labels, scenarios, 'anthropic');
    expect(cells(anthropic, 'anthropic-native')).toEqual(['0.25×']);
    expect(anthropic).not.toContain('openai-native');
    const openai = summaryTable(labels, scenarios, 'openai');
    expect(cells(openai, 'openai-native')).toEqual(['0.25×']);
    expect(openai).not.toContain('anthropic-native');
  });
});
