/**
 * Retrieval quality of `ToolIndex`, Mastra's `ToolSearchProcessor` and MiniSearch on labelled data.
 *
 * Usage: `pnpm bench:quality [--ablation] [folder-or-file ...]` (default: the shared data folder
 * beside the repository, `../shared/data/`). Prints one markdown table per data file.
 * `--ablation` adds rows for `ToolIndex` with other ID-match boosts (`idBoost`). With an
 * embeddings endpoint in the environment (`TOOL_SEARCH_EMBEDDINGS_URL`, `_MODEL`, `_API_KEY`;
 * see `fusion-rankers.ts`), rows for BM25F fused with embeddings, and embeddings alone, follow.
 */
import { performance } from 'node:perf_hooks';
import { type DataSet, loadDataSet, resolveDataFiles } from './data';
import { count, fixed3, markdownTable, ms } from './format';
import { embeddingsEndpointFromEnv, fusionRankers } from './fusion-rankers';
import { type JudgedRanking, summarizeQuality } from './metrics';
import { boostAblationRanker, defaultRankers, miniSearchRanker, type Ranker } from './rankers';
import { median } from './statistics';

/** `idBoost` settings the `--ablation` rows try, as [exact, word]; the default is 5 / 2. */
export const ABLATION_BOOSTS: readonly (readonly [number, number])[] = [
  [0, 0],
  [1, 0.5],
  [2, 1],
  [5, 0.5],
  [5, 2],
  [10, 4],
];

/** One ranker's row: quality plus timings. */
export interface QualityRow {
  label: string;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrrAt10: number;
  ndcgAt10: number;
  medianSearchMs: number;
  buildMs: number;
}

/** Builds `ranker` over the data set's catalog (twice; the second build is timed) and ranks every query. */
export async function evaluate(ranker: Ranker, data: DataSet): Promise<QualityRow> {
  const prepared = ranker.prepare(data.tools);
  // The first build warms the JIT (the first ranker to run would otherwise pay for it); time the second.
  await prepared.build();
  const started = performance.now();
  const searcher = await prepared.build();
  const buildMs = performance.now() - started;
  const rankings: JudgedRanking[] = [];
  const times: number[] = [];
  for (const { query, relevant } of data.queries) {
    const t0 = performance.now();
    const ranked = await searcher.search(query);
    times.push(performance.now() - t0);
    rankings.push({ ranked, relevant });
  }
  return {
    label: ranker.label,
    ...summarizeQuality(rankings),
    medianSearchMs: median(times),
    buildMs,
  };
}

/** The markdown table of rows. */
export function qualityTable(rows: readonly QualityRow[]): string {
  return markdownTable(
    [
      'ranker',
      'recall@1',
      'recall@5',
      'recall@10',
      'MRR@10',
      'nDCG@10',
      'median search ms',
      'build ms',
    ],
    rows.map((row) => [
      row.label,
      fixed3(row.recallAt1),
      fixed3(row.recallAt5),
      fixed3(row.recallAt10),
      fixed3(row.mrrAt10),
      fixed3(row.ndcgAt10),
      ms(row.medianSearchMs),
      ms(row.buildMs),
    ]),
  );
}

async function main(argv: readonly string[]): Promise<void> {
  const ablation = argv.includes('--ablation');
  const unknown = argv.filter((arg) => arg.startsWith('--') && arg !== '--ablation');
  if (unknown.length > 0) throw new Error(`unknown option(s): ${unknown.join(' ')}`);
  const files = resolveDataFiles(argv.filter((arg) => !arg.startsWith('--')));
  if (files.length === 0) throw new Error('no .json data files found');

  const rankers = [...defaultRankers(), miniSearchRanker(true)];
  if (ablation)
    for (const [exact, word] of ABLATION_BOOSTS) rankers.push(boostAblationRanker(exact, word));

  const endpoint = embeddingsEndpointFromEnv();
  if (endpoint.ok) rankers.push(...fusionRankers(endpoint));

  console.log(`# Retrieval quality (top ${10}, node ${process.version})\n`);
  console.log(
    endpoint.ok
      ? `Semantic search rows: embeddings from ${endpoint.model} at ${endpoint.url}.\n`
      : `Semantic search rows skipped: ${endpoint.reason}.\n`,
  );
  for (const file of files) {
    const data = loadDataSet(file);
    const rows: QualityRow[] = [];
    for (const ranker of rankers) rows.push(await evaluate(ranker, data));
    console.log(
      `## ${data.name} (${count(data.tools.length)} tools, ${count(data.queries.length)} queries)\n`,
    );
    console.log(`${qualityTable(rows)}\n`);
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
