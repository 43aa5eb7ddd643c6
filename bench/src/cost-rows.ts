/**
 * Every row of `bench:cost`, in table order: the two baselines, each adapter with `expose:
 * 'tools'`, with `expose: 'proxy'` and with no options at all (the package's defaults), the AI SDK
 * adapter under `'proxy'` with 0, 1, 3 and 5 definitions per search answer, then the
 * provider-native paths. An adapter row is built from an options object passed through the
 * adapter's own options (`cost-row.ts`, `RowOptions`): this file is where a new option is
 * turned on.
 */
import { aiSdkRows, everyToolRow } from './cost-ai-sdk';
import { createAnthropicNativeRow } from './cost-anthropic-native';
import { gatewayRows } from './cost-gateway';
import { langchainRows } from './cost-langchain';
import { mastraBuiltinRow, mastraRows } from './cost-mastra';
import { createOpenAINativeRow } from './cost-openai-native';
import {
  type AdapterRowSpec,
  COST_TOP_K,
  type CostRow,
  PROXY_OPTIONS,
  TOOLS_OPTIONS,
} from './cost-row';

/** Definitions per search answer the benchmark measures, to choose the default from. */
export const DEFINITION_COUNTS = [0, 1, 3, 5] as const;

/** The three rows of an adapter: `'tools'`, `'proxy'`, and its defaults. */
function adapterSpecs(key: string, label: string): AdapterRowSpec[] {
  return [
    { key: `${key}-tools`, label: `${label}, expose: 'tools'`, options: TOOLS_OPTIONS },
    { key: `${key}-proxy`, label: `${label}, expose: 'proxy'`, options: PROXY_OPTIONS },
    { key: `${key}-defaults`, label: `${label}, package defaults`, options: undefined },
  ];
}

/** The AI SDK adapter under `'proxy'` with N definitions per search answer. */
function definitionSpecs(): AdapterRowSpec[] {
  return DEFINITION_COUNTS.map((definitions) => ({
    key: `ai-sdk-proxy-defs-${definitions}`,
    label: `tool-search-ai-sdk, expose: 'proxy', ${definitions} definitions per search`,
    options: { expose: 'proxy', search: { topK: COST_TOP_K, definitions } },
  }));
}

/** Every row, in table order. */
export const ROWS: readonly CostRow[] = [
  everyToolRow,
  mastraBuiltinRow,
  ...mastraRows(adapterSpecs('mastra', 'tool-search-mastra')),
  ...aiSdkRows([...adapterSpecs('ai-sdk', 'tool-search-ai-sdk'), ...definitionSpecs()]),
  ...langchainRows(adapterSpecs('langchain', 'tool-search-langchain')),
  ...gatewayRows(adapterSpecs('mcp', 'tool-search-mcp gateway')),
  createAnthropicNativeRow(),
  createOpenAINativeRow(),
];

/** The explicit `'proxy'` row of each adapter: the rows issue 31's criteria name. */
export const PROXY_ROW_KEYS = ['mastra-proxy', 'ai-sdk-proxy', 'langchain-proxy', 'mcp-proxy'];
/** Each adapter with no options: the package defaults. */
export const DEFAULT_ROW_KEYS = [
  'mastra-defaults',
  'ai-sdk-defaults',
  'langchain-defaults',
  'mcp-defaults',
];
