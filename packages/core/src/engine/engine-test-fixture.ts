/**
 * The small catalog and meta-tool helpers the engine's example-based tests share (test code
 * only: nothing in the package imports it).
 */
import type { LoadToolOutput, SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolSearchEngineOptions } from './types';

export interface FakeTool {
  description: string;
  owner?: string;
}

export const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  get_forecast: { description: 'Multi-day weather forecast for a city' },
  github_create_issue: { description: 'Open an issue in a GitHub repository' },
  slack_post_message: { description: 'Post a message to a Slack channel' },
  premium_stock_quote: { description: 'Real-time stock quote for a ticker' },
  send_email: { description: 'Send an email to a recipient' },
};

export function engineFor(
  options: Partial<ToolSearchEngineOptions<FakeTool, { plan?: string }>> = {},
) {
  return createToolSearchEngine<FakeTool, { plan?: string }>({
    tools: catalog,
    describe: (tool, key) => ({ id: key, description: tool.description }),
    ...options,
  });
}

export function metaTool(session: ToolSearchSession<FakeTool, { plan?: string }>, name: string) {
  const tool = session.metaTools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no meta-tool ${name}`);
  return tool;
}
export const search = (
  session: ToolSearchSession<FakeTool, { plan?: string }>,
  query: unknown,
  limit?: number,
) =>
  metaTool(session, 'search_tools').execute(
    limit === undefined ? { query } : { query, limit },
  ) as Promise<SearchToolsOutput>;
export const load = (session: ToolSearchSession<FakeTool, { plan?: string }>, input: unknown) =>
  metaTool(session, 'load_tool').execute(input) as Promise<LoadToolOutput>;
export const activeIds = async (session: ToolSearchSession<FakeTool, { plan?: string }>) =>
  (await session.activeTools()).map((tool) => tool.id);
