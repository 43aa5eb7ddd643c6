/**
 * Checks that `tool-search eval` (the CLI) gives the figures this benchmark gives for `ToolIndex`
 * with default options: both run here, in one process, on every data file, and the table shows
 * them side by side with the largest difference. Both use the CLI's metric functions (the
 * benchmark imports them), so a difference comes from reading the file, building the index or
 * ranking, never from how a metric is computed.
 *
 * Usage: `pnpm --filter bench bench:cli [folder-or-file ...]` (default: every `.json` in
 * `../shared/data/`).
 */
import { Writable } from 'node:stream';
import { main as cli, type EvalReport } from 'tool-search-cli';
import { loadDataSet, resolveDataFiles } from './data';
import { count, fixed3, markdownTable } from './format';
import { evaluate } from './quality';
import { toolIndexRanker } from './rankers';

/** Runs `tool-search eval FILE --json --no-embeddings` in process and parses what it prints. */
async function cliEval(file: string): Promise<EvalReport> {
  let text = '';
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  // BM25F alone, as the benchmark's ToolIndex row, even when TOOL_SEARCH_EMBEDDINGS_URL is set.
  const code = await cli(['eval', file, '--json', '--no-embeddings'], { stdout });
  if (code !== 0) throw new Error(`tool-search eval ${file} exited with ${code}`);
  return JSON.parse(text) as EvalReport;
}

async function main(argv: readonly string[]): Promise<void> {
  for (const file of resolveDataFiles(argv)) {
    const data = loadDataSet(file);
    const bench = await evaluate(toolIndexRanker(), data);
    const ours = await cliEval(file);
    const pairs: [string, number, number][] = [
      ['recall@1', bench.recallAt1, ours.recallAt1],
      ['recall@5', bench.recallAt5, ours.recallAt5],
      ['recall@10', bench.recallAt10, ours.recallAt10],
      ['MRR@10', bench.mrrAt10, ours.mrr],
      ['nDCG@10', bench.ndcgAt10, ours.ndcg],
    ];
    const largest = Math.max(...pairs.map(([, a, b]) => Math.abs(a - b)));
    console.log(
      `## ${data.name} (${count(data.tools.length)} tools, ${count(data.queries.length)} queries)\n`,
    );
    console.log(
      markdownTable(
        ['source', ...pairs.map(([name]) => name)],
        [
          ['bench (ToolIndex, quality.ts)', ...pairs.map(([, value]) => fixed3(value))],
          ['tool-search eval --json', ...pairs.map(([, , value]) => fixed3(value))],
        ],
      ),
    );
    console.log(`\nLargest difference: ${largest.toExponential(2)}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
