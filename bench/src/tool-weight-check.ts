/**
 * `pnpm --filter bench bench:tool-weight`: how close the core's model-independent token estimate
 * (`estimateTokens`, which `toolSearch: 'auto'` weighs tools with) comes to o200k_base
 * (`gpt-tokenizer`) on each data set's tool definitions, as they are sent to a provider.
 *
 * Usage: `pnpm --filter bench bench:tool-weight [--data a.json,b.json]`.
 */
import { parseArgs } from 'node:util';
import { encode } from 'gpt-tokenizer';
import { toolWeight } from 'tool-search-core';
import { DEFAULT_DATA_DIR, loadDataSet, resolveDataFiles } from './data';
import { count, markdownTable } from './format';

const { values } = parseArgs({ options: { data: { type: 'string' } } });
const files = resolveDataFiles(
  values.data === undefined ? [DEFAULT_DATA_DIR] : values.data.split(','),
);
const rows: string[][] = [];
for (const file of files) {
  const data = loadDataSet(file);
  let estimated = 0;
  let counted = 0;
  const ratios: number[] = [];
  for (const tool of data.tools) {
    const descriptor = {
      id: tool.id,
      description: tool.description,
      ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
    };
    const estimate = toolWeight(descriptor);
    const tokens = encode(
      JSON.stringify({
        name: tool.id,
        description: tool.description,
        input_schema: tool.inputSchema ?? { type: 'object' },
      }),
    ).length;
    estimated += estimate;
    counted += tokens;
    ratios.push(estimate / tokens);
  }
  ratios.sort((left, right) => left - right);
  const at = (quantile: number) => ratios[Math.floor(quantile * (ratios.length - 1))]!.toFixed(2);
  rows.push([
    data.name,
    count(data.tools.length),
    count(counted),
    count(estimated),
    (estimated / counted).toFixed(2),
    `${at(0.05)} / ${at(0.5)} / ${at(0.95)}`,
  ]);
}
console.log(
  markdownTable(
    [
      'data set',
      'tools',
      'o200k tokens',
      'estimated',
      'estimate / o200k',
      'per tool: 5% / median / 95%',
    ],
    rows,
  ),
);
