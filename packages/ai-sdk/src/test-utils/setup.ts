/** Shared set-up of the loop tests: a tool search over the test catalog, on one major. */
import type { ExposeMode } from 'tool-search-core';
import { createToolSearch, type ToolSearchOptions } from '../index';
import type { AiMajor, ScriptedStep } from './ai-majors';
import { createCatalog } from './catalog';

export const META = ['search_tools', 'load_tool'];

export const searchLoadCallAnswer: ScriptedStep[] = [
  { toolCalls: [{ toolName: 'search_tools', input: { query: 'weather forecast' } }] },
  { toolCalls: [{ toolName: 'load_tool', input: { toolName: 'get_weather' } }] },
  { toolCalls: [{ toolName: 'get_weather', input: { city: 'Paris' } }] },
  { text: 'It is sunny in Paris.' },
];

export type Catalog = ReturnType<typeof createCatalog>['tools'];

export function setup<TExpose extends ExposeMode = 'tools'>(
  major: AiMajor,
  options: Partial<ToolSearchOptions<Catalog, Context, TExpose>> = {},
) {
  const { tools, executions } = createCatalog(major);
  // These loops check what `'tools'` sends (each loaded tool joins the step's tools); the proxy
  // (the default) has loops of its own, which pass `expose: 'proxy'`.
  const toolSearch = createToolSearch<Catalog, Context, TExpose>({
    toolSearch: true,
    tools,
    expose: 'tools' as TExpose,
    ...options,
  });
  return { toolSearch, executions };
}

export interface Context {
  userId?: string;
  deny?: Partial<Record<'search' | 'load' | 'active', string[]>>;
}

/** Call options that give the call's context to tools and to `prepareStep` on every major. */
export function withContext(
  major: AiMajor,
  toolSearch: {
    prepareStep: unknown;
    createPrepareStep: (options: { context: Context }) => unknown;
  },
  context: Context,
) {
  return {
    ...major.contextOption(context),
    prepareStep: major.prepareStepHasContext
      ? toolSearch.prepareStep
      : toolSearch.createPrepareStep({ context }),
  };
}

export function toolResultsOf(result: {
  steps: { toolResults: { toolName: string; output: unknown }[] }[];
}) {
  return result.steps.flatMap((step) => step.toolResults);
}
