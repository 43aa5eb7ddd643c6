import { tool } from '@langchain/core/tools';
import { z } from 'zod';

/** A SaaS service: what its records are called and what it is for. */
interface Service {
  id: string;
  label: string;
  noun: string;
  about: string;
}

const SERVICES: Service[] = [
  {
    id: 'github',
    label: 'GitHub',
    noun: 'issue',
    about: 'in a repository, with labels and assignees',
  },
  { id: 'gitlab', label: 'GitLab', noun: 'merge_request', about: 'in a project, with reviewers' },
  {
    id: 'jira',
    label: 'Jira',
    noun: 'ticket',
    about: 'in a project board, with priority and sprint',
  },
  { id: 'linear', label: 'Linear', noun: 'task', about: 'in a team cycle, with an estimate' },
  { id: 'slack', label: 'Slack', noun: 'message', about: 'in a channel or thread' },
  { id: 'teams', label: 'Microsoft Teams', noun: 'chat_message', about: 'in a team channel' },
  { id: 'gmail', label: 'Gmail', noun: 'email', about: 'in the mailbox, with attachments' },
  {
    id: 'calendar',
    label: 'Google Calendar',
    noun: 'event',
    about: 'with attendees and a video link',
  },
  { id: 'drive', label: 'Google Drive', noun: 'file', about: 'in a shared folder' },
  { id: 'notion', label: 'Notion', noun: 'page', about: 'in a workspace database' },
  { id: 'confluence', label: 'Confluence', noun: 'article', about: 'in a documentation space' },
  {
    id: 'salesforce',
    label: 'Salesforce',
    noun: 'opportunity',
    about: 'in the sales pipeline, with stage and amount',
  },
  { id: 'hubspot', label: 'HubSpot', noun: 'contact', about: 'in the CRM, with lifecycle stage' },
  {
    id: 'zendesk',
    label: 'Zendesk',
    noun: 'support_ticket',
    about: 'from a customer, with status and SLA',
  },
  {
    id: 'stripe',
    label: 'Stripe',
    noun: 'invoice',
    about: 'for a customer, with line items and due date',
  },
  {
    id: 'shopify',
    label: 'Shopify',
    noun: 'order',
    about: 'in the store, with fulfillment status',
  },
  { id: 'quickbooks', label: 'QuickBooks', noun: 'expense', about: 'in the company ledger' },
  { id: 'workday', label: 'Workday', noun: 'time_off_request', about: 'for an employee' },
  { id: 'greenhouse', label: 'Greenhouse', noun: 'candidate', about: 'in a hiring pipeline' },
  {
    id: 'pagerduty',
    label: 'PagerDuty',
    noun: 'incident',
    about: 'on an on-call schedule, with urgency',
  },
  { id: 'datadog', label: 'Datadog', noun: 'monitor', about: 'on a metric, with alert thresholds' },
  { id: 'aws', label: 'AWS', noun: 's3_bucket', about: 'in an account region' },
  { id: 'vercel', label: 'Vercel', noun: 'deployment', about: 'of a project, with its build logs' },
  { id: 'figma', label: 'Figma', noun: 'design_file', about: 'in a team project, with comments' },
  {
    id: 'weather',
    label: 'OpenWeather',
    noun: 'forecast',
    about: 'for a city, with daily highs, lows and rain',
  },
];

/** What each service lets you do to its records; `%` is the record, `@` the service. */
const ACTIONS: { id: string; text: string }[] = [
  { id: 'create', text: 'Create a new % in @ %about.' },
  { id: 'get', text: 'Get one % from @ by id, with all its fields.' },
  { id: 'list', text: 'List recent % records in @, newest first, with paging.' },
  { id: 'search', text: 'Search % records in @ by keywords and filters.' },
  { id: 'update', text: 'Update fields of an existing % in @.' },
  { id: 'delete', text: 'Delete a % from @ permanently.' },
  { id: 'archive', text: 'Archive a % in @ so it no longer shows by default.' },
  { id: 'comment_on', text: 'Add a comment to a % in @.' },
  { id: 'assign', text: 'Assign a % in @ to a user or team.' },
  { id: 'share', text: 'Share a % from @ with people by email, with view or edit rights.' },
  { id: 'export', text: 'Export % records from @ as CSV or JSON.' },
  { id: 'subscribe_to', text: 'Subscribe to changes of a % in @ through a webhook.' },
];

const words = (identifier: string) => identifier.replaceAll('_', ' ');

function describeAction(action: (typeof ACTIONS)[number], service: Service): string {
  return action.text
    .replace('%about', service.about)
    .replaceAll('%', words(service.noun))
    .replaceAll('@', service.label);
}

/** Input fields every tool takes, by action. */
function schemaFor(action: string, service: Service) {
  const record = z.string().describe(`The ${words(service.noun)} id`);
  const fields: Record<string, z.ZodType> = {};
  if (['create', 'update'].includes(action)) {
    fields.title = z.string().describe(`Title or subject of the ${words(service.noun)}`);
    fields.body = z.string().optional().describe('Text content or description');
  }
  if (!['create', 'list', 'search', 'export'].includes(action)) fields.id = record;
  if (action === 'search') fields.query = z.string().describe('Keywords to search for');
  if (action === 'comment_on') fields.text = z.string().describe('The comment text');
  if (action === 'assign') fields.assignee = z.string().describe('User name or email');
  if (action === 'share') fields.emails = z.array(z.string()).describe('People to share with');
  if (['list', 'search', 'export'].includes(action))
    fields.limit = z.number().int().optional().describe('Maximum number of records');
  if (service.id === 'github' || service.id === 'gitlab')
    fields.repo = z.string().describe('Repository as owner/name');
  if (service.id === 'slack' || service.id === 'teams')
    fields.channel = z.string().describe('Channel name, e.g. #general');
  if (service.id === 'weather') fields.city = z.string().describe('City name, e.g. Lisbon');
  return z.object(fields);
}

/** A deterministic fake result, so the example needs no accounts and no network. */
function fakeResult(name: string, input: Record<string, unknown>): string {
  if (name === 'weather_get_forecast') {
    return JSON.stringify({
      city: input.city,
      days: ['Light rain, 17°C', 'Showers, 16°C', 'Sunny, 21°C'],
    });
  }
  return JSON.stringify({ ok: true, tool: name, id: `${name.split('_')[0]}-4821`, ...input });
}

/** The example's catalog: every action of every service, 300 tools. */
export function createCatalog() {
  return SERVICES.flatMap((service) =>
    ACTIONS.map((action) => {
      const name = `${service.id}_${action.id}_${service.noun}`;
      return tool((input: Record<string, unknown>) => fakeResult(name, input), {
        name,
        description: describeAction(action, service),
        schema: schemaFor(action.id, service),
      });
    }),
  );
}
