import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolIndex } from 'tool-search-core';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, runCli } from '../test-utils/run-cli';
import type { EvalReport } from './evaluate-catalog';
import { ndcgAt, recallAt, reciprocalRankAt } from './metrics';

/** The labelled data sets beside the repository (not part of it): read only when present. */
const DATA_DIR = join(PACKAGE_ROOT, '../../../shared/data');
const files = existsSync(DATA_DIR)
  ? readdirSync(DATA_DIR)
      .filter((name) => name.endsWith('.json'))
      .map((name) => join(DATA_DIR, name))
  : [];

interface DataSet {
  tools: { id: string; description: string; inputSchema?: Record<string, unknown> }[];
  queries: { query: string; relevant: string[] }[];
}

describe.skipIf(files.length === 0)('tool-search eval on the shared data sets', () => {
  it.each(files)('agrees with ToolIndex to the third decimal on %s', async (file) => {
    const data = JSON.parse(readFileSync(file, 'utf8')) as DataSet;
    // ToolIndex over the file's tools as they are, top 10 per query, as the benchmark ranks them.
    const index = new ToolIndex(data.tools);
    const sums = { recallAt1: 0, recallAt5: 0, recallAt10: 0, mrr: 0, ndcg: 0 };
    for (const { query, relevant } of data.queries) {
      const ranked = index.search(query, { topK: 10 }).map((hit) => hit.id);
      sums.recallAt1 += recallAt(ranked, relevant, 1);
      sums.recallAt5 += recallAt(ranked, relevant, 5);
      sums.recallAt10 += recallAt(ranked, relevant, 10);
      sums.mrr += reciprocalRankAt(ranked, relevant, 10);
      sums.ndcg += ndcgAt(ranked, relevant, 10);
    }
    const run = await runCli(['eval', file, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as EvalReport;
    expect(report.queries).toBe(data.queries.length);
    expect(report.tools).toBe(data.tools.length);
    for (const [metric, sum] of Object.entries(sums)) {
      expect(report[metric as keyof typeof sums]).toBeCloseTo(sum / data.queries.length, 3);
    }
  });
});
