import { z } from 'zod';
import type { AiMajor } from './ai-majors';

/** Every call of a catalog tool, by name: the tests assert what really ran. */
export type Executions = Record<string, unknown[]>;

/**
 * A small catalog built with one major's own helpers: zod tools, and a `dynamicTool` with a JSON
 * schema (as MCP tools are) whose parameter name is the only word that finds it.
 */
export function createCatalog(major: AiMajor) {
  const executions: Executions = {};
  const run = (name: string) => async (input: unknown) => {
    executions[name] = [...(executions[name] ?? []), input];
    return { ok: true, tool: name };
  };
  const zodTool = (name: string, description: string, shape: z.ZodRawShape) =>
    major.tool({ description, inputSchema: z.object(shape), execute: run(name) });
  const tools = {
    send_email: zodTool('send_email', 'Send an email to a recipient', {
      to: z.string().describe('Recipient address'),
      body: z.string(),
    }),
    get_weather: zodTool('get_weather', 'Get the current weather forecast for a city', {
      city: z.string().describe('City name'),
    }),
    create_issue: zodTool('create_issue', 'Create an issue in a GitHub repository', {
      repo: z.string(),
      title: z.string(),
    }),
    list_calendar_events: zodTool('list_calendar_events', 'List upcoming calendar events', {
      from: z.string().describe('Start date, ISO 8601'),
    }),
    convert_currency: zodTool('convert_currency', 'Convert an amount between currencies', {
      amount: z.number(),
      from: z.string(),
      to: z.string(),
    }),
    translate_text: zodTool('translate_text', 'Translate text into another language', {
      text: z.string(),
      language: z.string(),
    }),
    mcp_lookup: major.dynamicTool({
      description: 'Look up a record in the CRM',
      inputSchema: major.jsonSchema({
        type: 'object',
        properties: { salesforceAccountId: { type: 'string', description: 'Opportunity owner' } },
        required: ['salesforceAccountId'],
      }),
      execute: run('mcp_lookup'),
    }),
  };
  return { tools, executions };
}
