import { parseArgs } from 'node:util';
import { UsageError } from '../cli/cli-error';
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
import { renderTable } from '../render/table';
import type { FieldMatch } from '../search/explain-match';
import {
  DEFAULT_SEARCH_TOP_K,
  type ExplainedHit,
  searchCatalog,
  searchCatalogFused,
} from '../search/search-catalog';

const FLAGS = {
  ...SOURCE_FLAGS,
  ...RANKING_FLAGS,
  ...EMBEDDINGS_FLAGS,
  'top-k': { type: 'string' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
} as const;

/** Short names of the fields in the table's "matched" column. */
const FIELD_LABELS: Record<FieldMatch['field'], string> = {
  'exact id': 'exact id',
  id: 'id',
  description: 'description',
  parameters: 'params',
  parameterDescriptions: 'param descriptions',
  keywords: 'keywords',
};

/** `tool-search search`: ranked hits for a query, with the fields that matched. */
export async function runSearch(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: FLAGS,
    allowPositionals: true,
  });
  const live = hasLiveSource(values);
  const [file, ...words] = live ? [undefined, ...positionals] : positionals;
  if (!live && file === undefined)
    throw new UsageError(
      'give a catalog FILE, --mcp "COMMAND ARGS" or --config FILE, then the query',
    );
  const query = words.join(' ');
  if (query.trim() === '') throw new UsageError('give a query to search for, e.g. "send an email"');
  const ranking = readRankingFlags(values);
  const topK =
    values['top-k'] === undefined
      ? undefined
      : number('--top-k', values['top-k'], { min: 1, integer: true });
  const source = live
    ? await loadLiveSource(values, io)
    : await loadFileSource(file!, { tools: true, queries: false });
  const embeddings = embeddingsOf(values, source, io);
  const options = {
    topK: topK ?? source.toolSearch?.topK ?? DEFAULT_SEARCH_TOP_K,
    minScore: ranking.minScore ?? source.toolSearch?.minScore ?? 0,
    index: ranking.index,
  };
  let hits: ExplainedHit[];
  let mode: string | undefined;
  if (embeddings) {
    const fused = await searchCatalogFused(source, query, { ...options, embeddings });
    hits = fused.hits;
    if (fused.failure !== undefined) {
      io.warn(`${fused.failure}; ranked by BM25F alone`);
      mode = `BM25F alone (the ${embeddings.model} endpoint failed)`;
    } else {
      mode = `BM25F fused with ${embeddings.model} (reciprocal rank, scores 0 to 1)`;
    }
  } else {
    hits = searchCatalog(source, query, options);
  }
  if (values.json) {
    io.print(
      JSON.stringify(hits.map(({ id, score, description }) => ({ id, score, description }))),
    );
    return 0;
  }
  if (hits.length === 0) {
    io.print(`No tool of ${source.label} (${source.tools.length} tools) matches "${query}".`);
    return 0;
  }
  const rows = hits.map((hit, position) => [
    String(position + 1),
    hit.id,
    hit.score.toFixed(3),
    hit.matched.length === 0
      ? '(by meaning)'
      : hit.matched
          .map(({ field, terms }) =>
            terms.length > 0 ? `${FIELD_LABELS[field]}: ${terms.join(' ')}` : FIELD_LABELS[field],
          )
          .join('; '),
    hit.description,
  ]);
  io.print(
    renderTable(
      [
        { header: '#', align: 'right' },
        { header: 'tool' },
        { header: 'score', align: 'right' },
        { header: 'matched (analyzed terms)', shrink: true },
        { header: 'description', shrink: true },
      ],
      rows,
      io.width,
    ),
  );
  const settings =
    (ranking.changed.length > 0 ? ranking.changed.join(', ') : 'default ranking') +
    (mode === undefined ? '' : ` · ${mode}`);
  io.print(
    `\n${hits.length} of ${source.tools.length.toLocaleString('en-US')} tools in ${source.label} · ${settings}`,
  );
  return 0;
}
