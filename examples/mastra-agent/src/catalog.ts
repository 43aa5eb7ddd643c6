import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

/** Services of a typical SaaS integration hub: name, what it holds, and its main object. */
const SERVICES = [
  ['github', 'GitHub repositories', 'issue'],
  ['gitlab', 'GitLab projects', 'merge request'],
  ['jira', 'Jira projects', 'ticket'],
  ['linear', 'Linear teams', 'issue'],
  ['slack', 'Slack workspaces', 'message'],
  ['discord', 'Discord servers', 'message'],
  ['teams', 'Microsoft Teams channels', 'message'],
  ['gmail', 'a Gmail mailbox', 'email'],
  ['outlook', 'an Outlook mailbox', 'email'],
  ['calendar', 'Google Calendar', 'event'],
  ['drive', 'Google Drive', 'file'],
  ['dropbox', 'Dropbox', 'file'],
  ['notion', 'Notion workspaces', 'page'],
  ['confluence', 'Confluence spaces', 'page'],
  ['salesforce', 'Salesforce CRM', 'lead'],
  ['hubspot', 'HubSpot CRM', 'contact'],
  ['zendesk', 'Zendesk support', 'ticket'],
  ['intercom', 'Intercom', 'conversation'],
  ['stripe', 'Stripe payments', 'invoice'],
  ['shopify', 'a Shopify store', 'order'],
  ['quickbooks', 'QuickBooks accounting', 'expense'],
  ['twilio', 'Twilio messaging', 'SMS'],
  ['weather', 'weather services', 'forecast'],
  ['maps', 'maps and places', 'route'],
  ['postgres', 'a PostgreSQL database', 'row'],
  ['s3', 'Amazon S3 buckets', 'object'],
  ['datadog', 'Datadog monitoring', 'alert'],
  ['pagerduty', 'PagerDuty on-call', 'incident'],
  ['figma', 'Figma design files', 'comment'],
  ['airtable', 'Airtable bases', 'record'],
] as const;

/** Actions every service offers, with the verb used in descriptions. */
const ACTIONS = [
  ['create', 'Create, send or post a new'],
  ['get', 'Get the current'],
  ['list', 'List'],
  ['update', 'Update an existing'],
  ['delete', 'Delete a'],
  ['search', 'Search'],
  ['archive', 'Archive a'],
  ['export', 'Export'],
  ['share', 'Share a'],
  ['comment', 'Add a comment to a'],
] as const;

/** Calls of the example's tools, so the demo can show what really ran. */
export const toolRuns: { toolName: string; input: unknown }[] = [];

/**
 * A catalog of 300 tools (30 services × 10 actions) with descriptions and input schemas, the
 * size at which sending every definition on every step stops being practical.
 */
export function createCatalog() {
  const tools: Record<string, ReturnType<typeof createTool>> = {};
  for (const [service, holds, object] of SERVICES) {
    for (const [action, verb] of ACTIONS) {
      const id = `${service}_${action}_${object.replaceAll(' ', '_').toLowerCase()}`;
      tools[id] = createTool({
        id,
        description: `${verb} ${object}${action === 'list' || action === 'search' || action === 'export' ? 's' : ''} in ${holds}.`,
        inputSchema: z.object({
          target: z.string().describe(`The ${object} or the place in ${holds} to act on`),
          details: z.string().optional().describe('Free text: content, filters or changes'),
        }),
        execute: async (input) => {
          toolRuns.push({ toolName: id, input });
          return resultOf(id, input.target);
        },
      });
    }
  }
  return tools;
}

/** Canned answers for the tools the scripted task calls; the rest just acknowledge. */
function resultOf(id: string, target: string): Record<string, unknown> {
  if (id === 'weather_get_forecast') return { city: target, forecast: 'sunny, 24°C, light wind' };
  if (id === 'slack_create_message') return { channel: target, posted: true, ts: '1712.0001' };
  return { ok: true, target };
}
