import { parseArgs } from 'node:util';
import { CliError, EXIT_CODES, UsageError } from '../cli/cli-error';
import type { CliIo } from '../cli/cli-io';
import { EMBEDDINGS_FLAGS } from '../cli/embeddings-flags';
import {
  embeddingsOf,
  hasLiveSource,
  loadFileSource,
  loadLiveSource,
  SOURCE_FLAGS,
} from '../cli/load-source';
import { number, RANKING_FLAGS, readRankingFlags } from '../cli/ranking-flags';
import {
  DEFAULT_WORST,
  type EvalReport,
  evaluateCatalog,
  evaluateCatalogFused,
} from '../eval/evaluate-catalog';
import { createProgressBar } from '../render/progress-bar';
import { renderTable } from '../render/table';

const FLAGS = {
  ...SOURCE_FLAGS,
  ...RANKING_FLAGS,
  ...EMBEDDINGS_FLAGS,
  worst: { type: 'string' },
  'fail-under': { type: 'string' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
} as const;

/** Hits shown per worst query in the table; `--json` has five. */
const RETURNED_IN_TABLE = 3;

/** `tool-search eval`: retrieval metrics on labelled queries, and the worst queries. */
export async function runEval(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: FLAGS,
    allowPositionals: true,
  });
  const live = hasLiveSource(values);
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? 'give a labelled FILE ({ "tools", "queries" }), or a queries file with --mcp or --config'
        : `eval takes one FILE, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  const file = positionals[0]!;
  const ranking = readRankingFlags(values);
  const worst =
    values.worst === undefined
      ? DEFAULT_WORST
      : number('--worst', values.worst, { min: 0, integer: true });
  const failUnder =
    values['fail-under'] === undefined
      ? undefined
      : number('--fail-under', values['fail-under'], { min: 0, max: 1 });
  const labels = await loadFileSource(file, { tools: !live, queries: true });
  const source = live ? await loadLiveSource(values, io) : labels;
  if (live && labels.tools.length > 0)
    io.warn(`${file}: its "tools" are ignored: the tools come from ${source.label}`);
  const embeddings = embeddingsOf(values, source, io);
  const progress = createProgressBar(io.stderr, 'queries');
  const options = {
    tools: source.tools,
    queries: labels.queries!,
    index: ranking.index,
    minScore: ranking.minScore ?? source.toolSearch?.minScore ?? 0,
    worst,
    label: file,
    onProgress: (done: number, total: number) => progress.update(done, total),
  };
  let report: EvalReport;
  try {
    report = embeddings
      ? await evaluateCatalogFused({ ...options, embeddings })
      : evaluateCatalog(options);
  } finally {
    progress.clear();
  }
  if (values.json) io.print(JSON.stringify(report));
  else printReport(report, source.label, ranking.changed, io);
  if (failUnder !== undefined && report.recallAt5 < failUnder) {
    throw new CliError(
      `recall@5 ${report.recallAt5.toFixed(3)} is under --fail-under ${failUnder}`,
      { exitCode: EXIT_CODES.check },
    );
  }
  return EXIT_CODES.ok;
}

function printReport(report: EvalReport, label: string, changed: string[], io: CliIo): void {
  const settings =
    (changed.length > 0 ? changed.join(', ') : 'default ranking') +
    (report.mode === 'fusion'
      ? ` · BM25F fused with ${report.embeddingsModel} (reciprocal rank)`
      : ' · BM25F alone');
  io.print(
    `${label}: ${report.queries.toLocaleString('en-US')} queries, ${report.tools.toLocaleString('en-US')} tools, ${settings}\n`,
  );
  const metrics = [
    ['recall@1', 'recallAt1'],
    ['recall@5', 'recallAt5'],
    ['recall@10', 'recallAt10'],
    ['MRR@10', 'mrr'],
    ['nDCG@10', 'ndcg'],
  ] as const;
  const { bm25f } = report;
  io.print(
    bm25f
      ? renderTable(
          [
            { header: 'metric' },
            { header: 'fused', align: 'right' },
            { header: 'BM25F alone', align: 'right' },
            { header: 'change', align: 'right' },
          ],
          metrics.map(([name, key]) => [
            name,
            report[key].toFixed(3),
            bm25f[key].toFixed(3),
            signed(report[key] - bm25f[key]),
          ]),
          io.width,
        )
      : renderTable(
          [{ header: 'metric' }, { header: 'value', align: 'right' }],
          metrics.map(([name, key]) => [name, report[key].toFixed(3)]),
          io.width,
        ),
  );
  if (report.worst.length === 0) return;
  io.print(`\nWorst queries (lowest nDCG@10 first; rank "-" = not in the top 100):\n`);
  io.print(
    renderTable(
      [
        { header: 'nDCG', align: 'right' },
        { header: 'query', shrink: true },
        { header: 'relevant (rank)', shrink: true },
        { header: 'returned instead', shrink: true },
      ],
      report.worst.map((entry) => [
        entry.ndcg.toFixed(3),
        entry.query,
        entry.relevant.map(({ id, rank }) => `${id} (${rank ?? '-'})`).join(', '),
        entry.returned
          .filter((hit) => !entry.relevant.some(({ id }) => id === hit.id))
          .slice(0, RETURNED_IN_TABLE)
          .map((hit) => hit.id)
          .join(', '),
      ]),
      io.width,
    ),
  );
}

/** A difference with its sign: `+0.125`, `-0.040`, `0.000`. */
function signed(value: number): string {
  const text = value.toFixed(3);
  return value > 0 && text !== '0.000' ? `+${text}` : text === '-0.000' ? '0.000' : text;
}
