import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import type { AnyMastraTool } from '../tool-search-processor-options';

/** Every run of a catalog tool, in order, so tests can see what really executed. */
export interface ExecutionLog {
  runs: { toolName: string; input: unknown }[];
}

/** A small catalog of real-looking tools whose runs are logged. */
export function createCatalog(log: ExecutionLog): Record<string, AnyMastraTool> {
  const tool = (
    id: string,
    description: string,
    shape: z.ZodRawShape,
    output: (input: Record<string, unknown>) => unknown = () => ({ ok: true }),
  ) =>
    createTool({
      id,
      description,
      inputSchema: z.object(shape),
      execute: async (input: Record<string, unknown>) => {
        log.runs.push({ toolName: id, input });
        return output(input);
      },
    }) as AnyMastraTool;
  return {
    get_weather: tool(
      'get_weather',
      'Get the current weather and a three-day forecast for a city',
      { city: z.string().describe('City name') },
      (input) => ({ city: input.city, forecast: 'sunny, 24°C' }),
    ),
    send_email: tool('send_email', 'Send an email message to a recipient', {
      to: z.string().describe('Recipient address'),
      subject: z.string(),
      body: z.string(),
    }),
    github_create_issue: tool('github_create_issue', 'Open a new issue in a GitHub repository', {
      repo: z.string(),
      title: z.string(),
    }),
    slack_post_message: tool('slack_post_message', 'Post a message to a Slack channel', {
      channel: z.string(),
      text: z.string(),
    }),
    transfer_funds: tool('transfer_funds', 'Move money between two accounts', {
      iban: z.string().describe('International bank account number (IBAN) of the payee'),
      amount: z.number(),
    }),
    createCalendarEvent: tool('createCalendarEvent', 'Schedule a meeting with attendees', {
      title: z.string(),
      start: z.string(),
    }),
    premium_export: tool('premium_export', 'Export the whole workspace as a CSV archive', {
      format: z.string(),
    }),
    translate_text: tool('translate_text', '将文本翻译成另一种语言', { text: z.string() }),
  };
}
