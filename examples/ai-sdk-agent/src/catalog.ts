import { type ToolSet, tool } from 'ai';
import { z } from 'zod';

/** A SaaS service: what it calls the thing it holds, and where it holds it. */
interface Service {
  id: string;
  name: string;
  /** The object, singular and plural, and its id prefix. */
  object: [singular: string, plural: string, prefix: string];
  /** Where objects live (repository, channel...). */
  container: string;
}

const SERVICES: Service[] = [
  { id: 'github', name: 'GitHub', object: ['issue', 'issues', 'GH'], container: 'repository' },
  {
    id: 'gitlab',
    name: 'GitLab',
    object: ['merge request', 'merge requests', 'MR'],
    container: 'project',
  },
  { id: 'jira', name: 'Jira', object: ['ticket', 'tickets', 'JIRA'], container: 'project' },
  { id: 'linear', name: 'Linear', object: ['issue', 'issues', 'LIN'], container: 'team' },
  { id: 'asana', name: 'Asana', object: ['task', 'tasks', 'AS'], container: 'project' },
  { id: 'trello', name: 'Trello', object: ['card', 'cards', 'TR'], container: 'board' },
  { id: 'notion', name: 'Notion', object: ['page', 'pages', 'NO'], container: 'workspace' },
  { id: 'confluence', name: 'Confluence', object: ['page', 'pages', 'CF'], container: 'space' },
  { id: 'gdrive', name: 'Google Drive', object: ['file', 'files', 'GD'], container: 'folder' },
  { id: 'dropbox', name: 'Dropbox', object: ['file', 'files', 'DB'], container: 'folder' },
  { id: 'slack', name: 'Slack', object: ['message', 'messages', 'SL'], container: 'channel' },
  {
    id: 'discord',
    name: 'Discord',
    object: ['message', 'messages', 'DC'],
    container: 'server channel',
  },
  {
    id: 'teams',
    name: 'Microsoft Teams',
    object: ['message', 'messages', 'MT'],
    container: 'channel',
  },
  { id: 'gmail', name: 'Gmail', object: ['email', 'emails', 'GM'], container: 'mailbox' },
  { id: 'outlook', name: 'Outlook', object: ['email', 'emails', 'OL'], container: 'mailbox' },
  { id: 'gcal', name: 'Google Calendar', object: ['event', 'events', 'EV'], container: 'calendar' },
  { id: 'zoom', name: 'Zoom', object: ['meeting', 'meetings', 'ZM'], container: 'account' },
  {
    id: 'salesforce',
    name: 'Salesforce',
    object: ['opportunity', 'opportunities', 'SF'],
    container: 'account',
  },
  { id: 'hubspot', name: 'HubSpot', object: ['contact', 'contacts', 'HS'], container: 'pipeline' },
  {
    id: 'zendesk',
    name: 'Zendesk',
    object: ['support ticket', 'support tickets', 'ZD'],
    container: 'help desk',
  },
  {
    id: 'intercom',
    name: 'Intercom',
    object: ['conversation', 'conversations', 'IC'],
    container: 'inbox',
  },
  { id: 'stripe', name: 'Stripe', object: ['invoice', 'invoices', 'in'], container: 'account' },
  { id: 'quickbooks', name: 'QuickBooks', object: ['bill', 'bills', 'QB'], container: 'company' },
  { id: 'shopify', name: 'Shopify', object: ['order', 'orders', 'SH'], container: 'store' },
  {
    id: 'mailchimp',
    name: 'Mailchimp',
    object: ['campaign', 'campaigns', 'MC'],
    container: 'audience',
  },
  {
    id: 'twilio',
    name: 'Twilio',
    object: ['SMS message', 'SMS messages', 'SM'],
    container: 'phone number',
  },
  {
    id: 'pagerduty',
    name: 'PagerDuty',
    object: ['incident', 'incidents', 'PD'],
    container: 'service',
  },
  {
    id: 'datadog',
    name: 'Datadog',
    object: ['monitor', 'monitors', 'DD'],
    container: 'organization',
  },
  { id: 's3', name: 'Amazon S3', object: ['object', 'objects', 'S3'], container: 'bucket' },
  { id: 'figma', name: 'Figma', object: ['design file', 'design files', 'FG'], container: 'team' },
];

type Describe = (service: Service) => string;

/** Ten actions every service offers: a description template and the parameters it takes. */
const ACTIONS: [
  verb: string,
  describe: Describe,
  parameters: (service: Service) => z.ZodRawShape,
][] = [
  [
    'list',
    ({ name, object, container }) =>
      `List ${object[1]} in a ${name} ${container}, newest first, with optional filters.`,
    ({ container }) => ({
      [container.replaceAll(' ', '_')]: z.string(),
      limit: z.number().int().optional(),
    }),
  ],
  [
    'get',
    ({ name, object }) => `Get one ${name} ${object[0]} by its id, with all its fields.`,
    idOnly,
  ],
  [
    'create',
    ({ name, object, container }) => `Create a new ${object[0]} in a ${name} ${container}.`,
    ({ container }) => ({
      [container.replaceAll(' ', '_')]: z.string(),
      title: z.string().describe('Title or subject'),
      body: z.string().optional().describe('Text or description'),
    }),
  ],
  [
    'update',
    ({ name, object }) =>
      `Update fields of an existing ${name} ${object[0]}: title, body, status or labels.`,
    (service) => ({ ...idOnly(service), fields: z.record(z.string(), z.string()) }),
  ],
  [
    'delete',
    ({ name, object }) => `Permanently delete a ${name} ${object[0]}. This cannot be undone.`,
    idOnly,
  ],
  [
    'search',
    ({ name, object }) => `Search ${name} ${object[1]} by keyword or phrase across all fields.`,
    () => ({ query: z.string() }),
  ],
  [
    'archive',
    ({ name, object }) =>
      `Archive a ${name} ${object[0]}: hide it from default views without deleting it.`,
    idOnly,
  ],
  [
    'export',
    ({ name, object }) => `Export ${name} ${object[1]} as a CSV or JSON file for reporting.`,
    () => ({ format: z.enum(['csv', 'json']) }),
  ],
  [
    'comment',
    ({ name, object }) => `Add a comment or reply to a ${name} ${object[0]}.`,
    (service) => ({ ...idOnly(service), text: z.string() }),
  ],
  [
    'assign',
    ({ name, object }) => `Assign a ${name} ${object[0]} to a teammate, who gets notified.`,
    (service) => ({ ...idOnly(service), assignee: z.string().describe('User name or email') }),
  ],
];

function idOnly({ name, object }: Service): z.ZodRawShape {
  return { id: z.string().describe(`The ${name} ${object[0]} id`) };
}

let nextId = 100;

/**
 * The catalog: every service × action, keyed like `github_create_issue`. Each tool answers with a
 * plausible record, so the example runs offline.
 */
export function createCatalog(): ToolSet {
  const tools: ToolSet = {};
  for (const service of SERVICES) {
    const object = service.object[0].replaceAll(' ', '_');
    for (const [verb, describe, parameters] of ACTIONS) {
      const plural = verb === 'list' || verb === 'search' || verb === 'export';
      const key = `${service.id}_${verb}_${plural ? service.object[1].replaceAll(' ', '_') : object}`;
      tools[key] = tool({
        description: describe(service),
        inputSchema: z.object(parameters(service)),
        execute: async (input) => {
          const number = nextId++;
          return {
            ok: true,
            id: `${service.object[2]}-${number}`,
            url: `https://${service.id}.example.com/${object}s/${number}`,
            ...input,
          };
        },
      });
    }
  }
  return tools;
}
