/** The catalog, engine and meta-tool helpers the `expose: 'proxy'` tests share. */
import type { LoadToolOutput } from '../meta-tools/meta-tool-schemas';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchSession } from './tool-search-session';
import type { ToolRun, ToolSearchEngineOptions } from './types';

export interface FakeTool {
  description: string;
  inputSchema?: Record<string, unknown>;
}

export const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    days: { type: 'integer', minimum: 1, maximum: 10 },
    unit: { enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city'],
  additionalProperties: false,
};

export const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city', inputSchema: weatherSchema },
  send_email: {
    description: 'Send an email to a recipient',
    inputSchema: {
      type: 'object',
      properties: {
        to: { type: 'string' },
        attachments: {
          type: 'array',
          items: { type: 'object', properties: { size: { type: 'number' } } },
        },
      },
      required: ['to'],
    },
  },
  github_create_issue: { description: 'Open an issue in a GitHub repository' },
  premium_stock_quote: { description: 'Real-time stock quote for a ticker' },
};

export type Context = { plan?: string };
export type Session = ToolSearchSession<FakeTool, Context>;

export function proxyEngine(options: Partial<ToolSearchEngineOptions<FakeTool, Context>> = {}) {
  const runs: ToolRun<FakeTool, Context>[] = [];
  const engine = createToolSearchEngine<FakeTool, Context>({
    tools: catalog,
    describe: (tool, key) => ({
      id: key,
      description: tool.description,
      ...(tool.inputSchema && { inputSchema: tool.inputSchema }),
    }),
    expose: 'proxy',
    runTool: (run) => {
      runs.push(run);
      return { ran: run.id, with: run.arguments };
    },
    ...options,
  });
  return { engine, runs };
}

export const meta = (session: Session, name: string) => {
  const tool = session.metaTools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no meta-tool ${name}`);
  return tool;
};
export const load = (session: Session, input: unknown) =>
  meta(session, 'load_tool').execute(input) as Promise<LoadToolOutput>;
export const call = (session: Session, input: unknown, callOptions?: unknown) =>
  meta(session, 'call_tool').execute(input, callOptions);
