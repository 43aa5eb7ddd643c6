/**
 * `pnpm bench:cost`: what whole conversations cost under the providers' prompt caches, per way of
 * giving a model a large catalog. Each row replays the same scripted conversation through its
 * framework with a recording model; every request is priced against the one before it
 * (`cost-pricing.ts`). See bench/README.md, "Cost of a conversation".
 *
 * Usage: `pnpm bench:cost [--quick] [--steps 10,50,200] [--loads 0,3,10] [--data a.json,b.json]
 * [--tools N] [--rows key,key]`.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { aiSdkRows, everyToolRow } from './cost-ai-sdk';
import { createAnthropicNativeRow } from './cost-anthropic-native';
import { gatewayRows } from './cost-gateway';
import { langchainRows } from './cost-langchain';
import { mastraBuiltinRow, mastraRows } from './cost-mastra';
import { createOpenAINativeRow } from './cost-openai-native';
import { pickQueries, planConversation } from './cost-plan';
import {
  ANTHROPIC_CACHE,
  type CachePricing,
  OPENAI_CACHE,
  type PricedStep,
  prefixChange,
  priceConversation,
} from './cost-pricing';
import { ConversationRecorder } from './cost-recorder';
import {
  describePricing,
  type RowResult,
  scenarioTable,
  summaryTable,
  type Totals,
  tallyNote,
} from './cost-report';
import { BlockTokenizer } from './cost-request';
import type { CostRow, PreparedRow } from './cost-row';
import { ScriptedConversation } from './cost-script';
import { type DataSet, DEFAULT_DATA_DIR, loadDataSet, resolveDataFiles, spread } from './data';
import { count } from './format';

/**
 * Every row, in table order: the two baselines, each adapter in each exposure, then the
 * provider-native paths (each priced by its own provider's list only).
 */
const ROWS: readonly CostRow[] = [
  everyToolRow,
  mastraBuiltinRow,
  ...mastraRows,
  ...aiSdkRows,
  ...langchainRows,
  ...gatewayRows,
  createAnthropicNativeRow(),
  createOpenAINativeRow(),
];

const DEFAULT_STEPS = [10, 50, 200];
const DEFAULT_LOADS = [0, 3, 10];
/** `--quick`: the smallest scenario that loads anything, for CI smoke runs. */
const QUICK = { steps: [10], loads: [3] };
const DEFAULT_DATA = ['dev-bfcl.json', 'dev-acebench-zh.json'];
const NOT_APPLICABLE = 'n/a (adapter has no expose option)';

function list(text: string | undefined, fallback: number[]): number[] {
  if (text === undefined) return fallback;
  return text.split(',').map((item) => {
    const value = Number(item);
    if (!Number.isInteger(value) || value < 0) throw new Error(`not a count: ${item}`);
    return value;
  });
}

function total(steps: readonly PricedStep[], pricing: CachePricing): Totals {
  const totals: Totals = { cached: 0, written: 0, priced: 0 };
  for (const cost of priceConversation(steps, pricing)) {
    totals.cached += cost.cachedTokens;
    totals.written += cost.writtenTokens;
    totals.priced += cost.priced;
  }
  return totals;
}

async function runRow(options: {
  row: CostRow;
  prepared: PreparedRow;
  conversation: ScriptedConversation;
  tokenizer: BlockTokenizer;
}): Promise<RowResult> {
  const { row, prepared, conversation } = options;
  const recorder = new ConversationRecorder(options.tokenizer, conversation);
  const began = performance.now();
  await prepared.play(conversation, recorder);
  const seconds = (performance.now() - began) / 1000;
  const { steps } = recorder;
  let toolsChanged = 0;
  let earlierChanged = 0;
  for (let index = 1; index < steps.length; index++) {
    const change = prefixChange(steps[index - 1]!.request, steps[index]!.request);
    if (change === 'tools') toolsChanged++;
    if (change === 'earlier') earlierChanged++;
  }
  const anthropic = total(steps, ANTHROPIC_CACHE);
  const openai = total(steps, OPENAI_CACHE);
  let inputTokens = 0;
  let outputTokens = 0;
  for (const step of steps) {
    for (const block of step.request.blocks) inputTokens += block.tokens.length;
    outputTokens += step.outputTokens;
  }
  return {
    row,
    ...(conversation.unsupported && { skipped: NOT_APPLICABLE }),
    requests: steps.length,
    inputTokens,
    outputTokens,
    anthropic,
    openai,
    toolsChanged,
    earlierChanged,
    tally: conversation.tally,
    seconds,
  };
}

async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      steps: { type: 'string' },
      loads: { type: 'string' },
      data: { type: 'string' },
      rows: { type: 'string' },
      tools: { type: 'string' },
    },
  });
  const stepCounts = list(values.steps, values.quick ? QUICK.steps : DEFAULT_STEPS);
  const loadCounts = list(values.loads, values.quick ? QUICK.loads : DEFAULT_LOADS);
  const files =
    values.data === undefined
      ? DEFAULT_DATA.map((name) => `${DEFAULT_DATA_DIR}/${name}`)
      : resolveDataFiles(values.data.split(','));
  const catalogSize = values.tools === undefined ? undefined : list(values.tools, [])[0];
  const wanted = values.rows?.split(',');
  const rows = ROWS.filter((row) => wanted === undefined || wanted.includes(row.key));
  if (rows.length === 0) throw new Error(`no row matches --rows ${values.rows}`);

  const began = performance.now();
  let failures = 0;
  const tokenizer = new BlockTokenizer();
  console.log(`# Cost of a conversation (node ${process.version})\n`);
  console.log(
    `Tokens: o200k_base (gpt-tokenizer), standing in for Anthropic's tokenizer. Prices in base input tokens (1 = one uncached input token). ${describePricing(ANTHROPIC_CACHE)} ${describePricing(OPENAI_CACHE)}\n`,
  );
  for (const file of files) {
    const data = subset(loadDataSet(file), catalogSize);
    const tools = new Map(data.tools.map((tool) => [tool.id, tool]));
    const prepared = new Map<CostRow, PreparedRow>();
    for (const row of rows) prepared.set(row, await row.prepare(data));
    const byScenario: { label: string; results: RowResult[] }[] = [];
    const labels = rows.map((row) => row.label);
    console.log(`## ${data.name} (${count(data.tools.length)} tools)\n`);
    for (const steps of stepCounts) {
      for (const loads of loadCounts) {
        const label = `${steps} steps, ${loads} loads`;
        const plan = planConversation(steps, loads);
        if (typeof plan === 'string') {
          console.log(`### ${label}\n\n${plan}\n`);
          continue;
        }
        const queries = pickQueries(data.queries, tools, plan);
        const results: RowResult[] = [];
        for (const row of rows) {
          const ready = prepared.get(row)!;
          const conversation = new ScriptedConversation({
            plan,
            queries,
            exposure: row.exposure,
            tools,
            ...(ready.nameOf && { nameOf: ready.nameOf }),
            ...(ready.idOf && { idOf: ready.idOf }),
          });
          const result = await runRow({ row, prepared: ready, conversation, tokenizer }).catch(
            (error: unknown): RowResult => {
              failures++;
              console.error(error);
              return failedRow(row, conversation, error);
            },
          );
          console.error(`[cost] ${data.name}, ${label}: ${row.key} ${result.seconds.toFixed(1)} s`);
          results.push(result);
        }
        byScenario.push({ label, results });
        console.log(`### ${label}\n\n${scenarioTable(results)}\n${tallyNote(results)}`);
      }
    }
    for (const ready of prepared.values()) await ready.close();
    if (byScenario.length > 1) {
      console.log(`### ${data.name}: priced total against every tool, Anthropic\n`);
      console.log(`${summaryTable(labels, byScenario, 'anthropic')}\n`);
      console.log(`### ${data.name}: priced total against every tool, OpenAI\n`);
      console.log(`${summaryTable(labels, byScenario, 'openai')}\n`);
    }
  }
  console.log(`Run time: ${((performance.now() - began) / 1000).toFixed(0)} s.`);
  if (failures > 0)
    throw new Error(`${failures} conversation(s) failed; see the rows marked "error"`);
}

/** A row whose conversation threw: shown as such, so the other rows still print. */
function failedRow(row: CostRow, conversation: ScriptedConversation, error: unknown): RowResult {
  const message = error instanceof Error ? error.message : String(error);
  const empty = { cached: 0, written: 0, priced: 0 };
  return {
    row,
    skipped: `error: ${message.split('\n')[0]!.slice(0, 120)}`,
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    anthropic: empty,
    openai: empty,
    toolsChanged: 0,
    earlierChanged: 0,
    tally: conversation.tally,
    seconds: 0,
  };
}

/**
 * `--tools N`: `N` of the data set's tools, spread evenly over the file, and the queries whose
 * labelled tool is among them.
 */
function subset(data: DataSet, size: number | undefined): DataSet {
  if (size === undefined || size >= data.tools.length) return data;
  const tools = spread(data.tools, size);
  const ids = new Set(tools.map((tool) => tool.id));
  const queries = data.queries.filter((query) => ids.has(query.relevant[0] ?? ''));
  if (queries.length === 0) throw new Error(`--tools ${size}: no query's labelled tool is left`);
  return { ...data, name: `${data.name}, ${count(size)} of its tools`, tools, queries };
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
