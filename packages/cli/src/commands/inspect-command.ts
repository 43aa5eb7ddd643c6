import { parseArgs } from 'node:util';
import { CliError, EXIT_CODES, UsageError } from '../cli/cli-error';
import type { CliIo } from '../cli/cli-io';
import { hasLiveSource, loadFileSource, loadLiveSource, SOURCE_FLAGS } from '../cli/load-source';
import { number, RANKING_FLAGS, readRankingFlags } from '../cli/ranking-flags';
import { metaToolDefinitions } from '../inspect/count-tokens';
import { type Finding, type InspectReport, inspectCatalog } from '../inspect/inspect-catalog';
import { renderTable } from '../render/table';

const FLAGS = {
  ...SOURCE_FLAGS,
  ...RANKING_FLAGS,
  'min-description-terms': { type: 'string' },
  'duplicate-threshold': { type: 'string' },
  'fail-on-findings': { type: 'boolean' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
} as const;

/** Rows the tables show without `--all`: the largest tools, and the findings of each kind. */
const SHOWN_WITHOUT_ALL = 10;

/** Headings of the finding kinds, in report order. */
const FINDING_TITLES: Record<Finding['type'], string> = {
  'empty-description': 'Empty descriptions',
  'short-description': 'Very short descriptions',
  'near-duplicate': 'Near-duplicate tools',
  'name-collision': "Names that collide under the gateway's name rule",
  'not-found-by-own-description': 'Not in the top 5 for their own description',
};

/** `tool-search inspect`: size, tokens and findability problems of a catalog. */
export async function runInspect(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: FLAGS,
    allowPositionals: true,
  });
  const live = hasLiveSource(values);
  if (live ? positionals.length > 0 : positionals.length !== 1) {
    throw new UsageError(
      live
        ? `inspect takes no FILE with --mcp or --config, got ${positionals.join(' ')}`
        : 'give a catalog FILE, --mcp "COMMAND ARGS" or --config FILE',
    );
  }
  const ranking = readRankingFlags(values);
  const minDescriptionTerms =
    values['min-description-terms'] === undefined
      ? undefined
      : number('--min-description-terms', values['min-description-terms'], {
          min: 0,
          integer: true,
        });
  const duplicateThreshold =
    values['duplicate-threshold'] === undefined
      ? undefined
      : number('--duplicate-threshold', values['duplicate-threshold'], {
          min: 0,
          max: 1,
          exclusive: true,
        });
  const source = live
    ? await loadLiveSource(values, io)
    : await loadFileSource(positionals[0]!, { tools: true, queries: false });
  const metaTools = {
    autoLoad: source.toolSearch?.autoLoad ?? false,
    unloadTool: source.toolSearch?.unloadTool ?? false,
  };
  const report = inspectCatalog(source, {
    index: ranking.index,
    minScore: ranking.minScore ?? source.toolSearch?.minScore ?? 0,
    ...(minDescriptionTerms !== undefined && { minDescriptionTerms }),
    ...(duplicateThreshold !== undefined && { duplicateThreshold }),
    metaTools,
  });
  if (values.json) io.print(JSON.stringify(report));
  else printReport(report, source.label, metaTools, values.all ?? false, io);
  if (values['fail-on-findings'] && report.findings.length > 0) {
    throw new CliError(`${source.label}: ${report.findings.length} finding(s)`, {
      exitCode: EXIT_CODES.check,
    });
  }
  return EXIT_CODES.ok;
}

function printReport(
  report: InspectReport,
  label: string,
  metaTools: { autoLoad: boolean; unloadTool: boolean },
  all: boolean,
  io: CliIo,
): void {
  const count = (value: number) => value.toLocaleString('en-US');
  const { catalog, metaTools: metaCost } = report.tokens;
  const names = metaToolDefinitions(metaTools)
    .map((tool) => tool.function.name)
    .join(', ');
  const share = catalog > 0 ? 1 - metaCost / catalog : 0;
  // One decimal near 100%: "100% less" would read as "free".
  const saved = catalog > 0 ? ` (${(share * 100).toFixed(share > 0.99 ? 1 : 0)}% less)` : '';
  io.print(`${label}: ${count(report.tools)} tools\n`);
  io.print('Prompt tokens (o200k_base, tools as function definitions):');
  io.print(`  every tool, every step:      ${count(catalog)}`);
  io.print(`  the meta-tools instead:      ${count(metaCost)}${saved}  [${names}]`);
  if (report.perTool.length > 0) {
    const largest = [...report.perTool].sort(
      (a, b) => b.tokens - a.tokens || (a.id < b.id ? -1 : 1),
    );
    const shown = all ? largest : largest.slice(0, SHOWN_WITHOUT_ALL);
    io.print(
      `\n${all || shown.length === largest.length ? 'Tokens per tool' : `Largest ${shown.length} tools`}:\n`,
    );
    io.print(
      renderTable(
        [
          { header: 'tool', shrink: true },
          { header: 'tokens', align: 'right' },
        ],
        shown.map((tool) => [tool.id, count(tool.tokens)]),
        io.width,
      ),
    );
  }
  if (report.findings.length === 0) {
    io.print('\nNo findings.');
    return;
  }
  io.print(`\nFindings (${count(report.findings.length)}):`);
  for (const type of Object.keys(FINDING_TITLES) as Finding['type'][]) {
    const findings = report.findings.filter((finding) => finding.type === type);
    if (findings.length === 0) continue;
    io.print(`\n${FINDING_TITLES[type]} (${count(findings.length)}):`);
    const shown = all ? findings : findings.slice(0, SHOWN_WITHOUT_ALL);
    for (const finding of shown) io.print(`  - ${finding.message}`);
    if (shown.length < findings.length)
      io.print(
        `  ... and ${count(findings.length - shown.length)} more (--all or --json lists them)`,
      );
  }
}
