/**
 * `pnpm bench:cost`: what whole conversations cost under the providers' prompt caches, per way of
 * giving a model a large catalog. Each row replays the same scripted conversation through its
 * framework with a recording model; every request is priced against the one before it
 * (`cost-pricing.ts`). See bench/README.md, "Cost of a conversation".
 *
 * Usage: `pnpm bench:cost [--quick] [--content real|minimal] [--scenarios short,long,catalog-100,grid]
 * [--steps 10,50,200] [--loads 0,3,10] [--data a.json,b.json] [--tools N] [--rows key,key]
 * [--seed S] [--break-even-sizes 4,8,...,512|none] [--break-even-row key]`.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { breakEvenTable } from './cost-break-even';
import { type ContentMode, ConversationContent, contentPool } from './cost-content';
import { describeContent } from './cost-content-report';
import { collectMcpOutputs, type McpOutput } from './cost-mcp-outputs';
import { closeRows, type PreparedRows, playScenario, prepareRows } from './cost-play';
import { ANTHROPIC_1H_CACHE, ANTHROPIC_CACHE, OPENAI_CACHE } from './cost-price-lists';
import { describePricing, scenarioTable, tallyNote } from './cost-report';
import { BlockTokenizer } from './cost-request';
import type { CostRow } from './cost-row';
import { DEFAULT_ROW_KEYS, PROXY_ROW_KEYS, ROWS } from './cost-rows';
import {
  DEFAULT_GRID,
  gridScenarios,
  pickScenarios,
  type Scenario,
  subset,
} from './cost-scenarios';
import { criteriaTable, perToolUseTable, type ScenarioResults, summaryTable } from './cost-summary';
import { sweepBreakEven } from './cost-sweep';
import { type DataSet, DEFAULT_DATA_DIR, loadDataSet, resolveDataFiles } from './data';
import { count } from './format';

/** `--quick`: the short task, one small grid shape and a two-size break-even, for CI smoke runs. */
const QUICK = { scenarios: ['short', 'grid'], steps: [10], loads: [3], breakEvenSizes: [8, 32] };
const DEFAULT_SCENARIOS = ['short', 'long', 'catalog-100', 'grid'];
const DEFAULT_DATA = ['dev-bfcl.json', 'dev-acebench-zh.json'];
/** Catalog sizes of the break-even sweep: from a handful of tools to where tool search pays. */
const DEFAULT_BREAK_EVEN_SIZES = [4, 8, 16, 32, 64, 128, 256, 512];
const DEFAULT_BREAK_EVEN_ROW = 'ai-sdk-proxy';
const DEFAULT_SEED = '1';

function list(text: string | undefined, fallback: readonly number[]): number[] {
  if (text === undefined) return [...fallback];
  return text.split(',').map((item) => {
    const value = Number(item);
    if (!Number.isInteger(value) || value < 0) throw new Error(`not a count: ${item}`);
    return value;
  });
}

function options(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      content: { type: 'string', default: 'real' },
      scenarios: { type: 'string' },
      steps: { type: 'string' },
      loads: { type: 'string' },
      data: { type: 'string' },
      rows: { type: 'string' },
      tools: { type: 'string' },
      seed: { type: 'string', default: DEFAULT_SEED },
      'break-even-sizes': { type: 'string' },
      'break-even-row': { type: 'string', default: DEFAULT_BREAK_EVEN_ROW },
    },
  });
  if (values.content !== 'real' && values.content !== 'minimal') {
    throw new Error(`--content ${values.content}: use real or minimal`);
  }
  const grid = gridScenarios(
    list(values.steps, values.quick ? QUICK.steps : DEFAULT_GRID.steps),
    list(values.loads, values.quick ? QUICK.loads : DEFAULT_GRID.loads),
  );
  const names =
    values.scenarios?.split(',') ??
    (values.steps !== undefined || values.loads !== undefined
      ? ['grid']
      : values.quick
        ? QUICK.scenarios
        : DEFAULT_SCENARIOS);
  const sizes = values['break-even-sizes'];
  const wanted = values.rows?.split(',');
  const rows = ROWS.filter((row) => wanted === undefined || wanted.includes(row.key));
  if (rows.length === 0) throw new Error(`no row matches --rows ${values.rows}`);
  return {
    content: values.content as ContentMode,
    scenarios: pickScenarios(names, grid),
    files:
      values.data === undefined
        ? DEFAULT_DATA.map((name) => `${DEFAULT_DATA_DIR}/${name}`)
        : resolveDataFiles(values.data.split(',')),
    catalogSize: values.tools === undefined ? undefined : list(values.tools, [])[0],
    rows,
    seed: values.seed,
    breakEvenSizes:
      sizes === 'none'
        ? []
        : list(sizes, values.quick ? QUICK.breakEvenSizes : DEFAULT_BREAK_EVEN_SIZES),
    breakEvenRow: values['break-even-row'],
  };
}

type Options = ReturnType<typeof options>;

async function main(argv: readonly string[]): Promise<void> {
  const settings = options(argv);
  const began = performance.now();
  const tokenizer = new BlockTokenizer();
  console.log(`# Cost of a conversation (node ${process.version})\n`);
  console.log(
    `Tokens: o200k_base (gpt-tokenizer), standing in for Anthropic's tokenizer. Prices in base input tokens (1 = one uncached input token). ${[ANTHROPIC_CACHE, ANTHROPIC_1H_CACHE, OPENAI_CACHE].map(describePricing).join(' ')}\n`,
  );
  const outputs = settings.content === 'real' ? await collectMcpOutputs() : [];
  console.log(`${describeContent(settings.content, outputs)}\n`);
  let failures = 0;
  for (const file of settings.files) {
    failures += await runFile(loadDataSet(file), settings, outputs, tokenizer);
  }
  console.log(`Run time: ${((performance.now() - began) / 1000).toFixed(0)} s.`);
  if (failures > 0)
    throw new Error(`${failures} conversation(s) failed; see the rows marked "error"`);
}

/** Every scenario on one data file, then its summaries and its break-even; returns the failures. */
async function runFile(
  data: DataSet,
  settings: Options,
  outputs: readonly McpOutput[],
  tokenizer: BlockTokenizer,
): Promise<number> {
  const pool = contentPool(
    outputs,
    data.queries.map((query) => query.query),
  );
  const contentOf = (scenario: Scenario) =>
    new ConversationContent({
      mode: settings.content,
      pool,
      seed: `${settings.seed}/${data.name}/${scenario.key}`,
    });
  const catalogs = new Map<number | undefined, { data: DataSet; prepared: PreparedRows }>();
  const catalogFor = async (size: number | undefined) => {
    let catalog = catalogs.get(size);
    if (catalog === undefined) {
      const sub = subset(data, size);
      catalog = { data: sub, prepared: await prepareRows(settings.rows, sub) };
      catalogs.set(size, catalog);
    }
    return catalog;
  };
  let failures = 0;
  const byScenario: ScenarioResults[] = [];
  console.log(`## ${data.name} (${count(data.tools.length)} tools)\n`);
  for (const scenario of settings.scenarios) {
    const catalog = await catalogFor(scenario.tools ?? settings.catalogSize);
    const label =
      catalog.data === data
        ? scenario.label
        : `${scenario.label} (${count(catalog.data.tools.length)} tools)`;
    const results = await playScenario({
      rows: settings.rows,
      prepared: catalog.prepared,
      data: catalog.data,
      scenario,
      content: contentOf(scenario),
      tokenizer,
      onRow: (result) =>
        console.error(
          `[cost] ${data.name}, ${label}: ${result.row.key} ${result.seconds.toFixed(1)} s`,
        ),
      onError: (error) => {
        failures++;
        console.error(error);
      },
    });
    if (typeof results === 'string') {
      console.log(`### ${label}\n\n${results}\n`);
      continue;
    }
    byScenario.push({ label, loads: scenario.loads, results });
    console.log(`### ${label}\n\n${scenarioTable(results)}\n${tallyNote(results)}`);
  }
  for (const { prepared } of catalogs.values()) await closeRows(prepared);
  printSummaries(data, settings.rows, byScenario);
  if (settings.breakEvenSizes.length > 0) {
    const rows = sweepRows(settings);
    const sweep = await sweepBreakEven({
      data,
      scenarios: settings.scenarios,
      sizes: settings.breakEvenSizes,
      everyTool: rows[0],
      proxy: rows[1],
      contentOf,
      tokenizer,
    });
    console.log(
      `### ${data.name}: break-even catalog weight (tokens), every tool against ${rows[1].label}\n`,
    );
    console.log(`${breakEvenTable(sweep)}\n`);
  }
  return failures;
}

function sweepRows(settings: Options): [CostRow, CostRow] {
  const everyTool = ROWS.find((row) => row.exposure === 'every-tool')!;
  const proxy = ROWS.find((row) => row.key === settings.breakEvenRow);
  if (proxy === undefined)
    throw new Error(`--break-even-row ${settings.breakEvenRow}: no such row`);
  return [everyTool, proxy];
}

function printSummaries(
  data: DataSet,
  rows: readonly CostRow[],
  byScenario: readonly ScenarioResults[],
): void {
  if (byScenario.length === 0) return;
  const labels = rows.map((row) => row.label);
  console.log(`### ${data.name}: issue 31's criteria (worst row of each)\n`);
  console.log(
    `${criteriaTable(byScenario, { proxy: PROXY_ROW_KEYS, defaults: DEFAULT_ROW_KEYS })}\n`,
  );
  console.log(`### ${data.name}: requests per tool use\n`);
  console.log(`${perToolUseTable(labels, byScenario)}\n`);
  for (const [key, name] of [
    ['anthropic', 'Anthropic, 5-minute cache'],
    ['anthropic-expired', 'Anthropic, 5-minute cache expired before every turn'],
    ['openai', 'OpenAI'],
  ] as const) {
    console.log(`### ${data.name}: priced total against every tool, ${name}\n`);
    console.log(`${summaryTable(labels, byScenario, key)}\n`);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
