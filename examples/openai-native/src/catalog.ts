// A 1,000-tool catalog: 40 services × 25 actions, named `<service>__<action>` as an MCP gateway
// names its tools, each with a JSON Schema and a stand-in implementation.

/** A tool of the app: what the model is told, and what runs. */
export interface AppTool {
  description: string;
  parameters: {
    type: 'object';
    properties: Record<string, { type: 'string'; description: string }>;
  };
  run: (input: Record<string, unknown>) => unknown;
}

const SERVICES = {
  github: 'GitHub issue',
  gitlab: 'GitLab merge request',
  jira: 'Jira ticket',
  linear: 'Linear issue',
  slack: 'Slack message',
  discord: 'Discord post',
  gmail: 'Gmail email',
  outlook: 'Outlook email',
  salesforce: 'Salesforce account',
  hubspot: 'HubSpot contact',
  stripe: 'Stripe payment',
  paypal: 'PayPal payout',
  shopify: 'Shopify order',
  zendesk: 'Zendesk ticket',
  intercom: 'Intercom conversation',
  notion: 'Notion page',
  confluence: 'Confluence page',
  asana: 'Asana task',
  trello: 'Trello card',
  figma: 'Figma file',
  dropbox: 'Dropbox file',
  box: 'Box folder',
  twilio: 'Twilio SMS',
  sendgrid: 'SendGrid campaign',
  pagerduty: 'PagerDuty incident',
  datadog: 'Datadog monitor',
  sentry: 'Sentry error',
  grafana: 'Grafana dashboard',
  s3: 'S3 object',
  kubernetes: 'Kubernetes deployment',
  vercel: 'Vercel deployment',
  cloudflare: 'Cloudflare DNS record',
  postgres: 'Postgres row',
  mongodb: 'MongoDB document',
  snowflake: 'Snowflake query',
  bigquery: 'BigQuery dataset',
  airtable: 'Airtable record',
  calendar: 'calendar event',
  zoom: 'Zoom meeting',
  weather: 'weather forecast',
};

const ACTIONS = [
  'create',
  'get',
  'update',
  'delete',
  'list',
  'search',
  'comment_on',
  'assign',
  'archive',
  'restore',
  'export',
  'import',
  'share',
  'label',
  'move',
  'copy',
  'lock',
  'unlock',
  'watch',
  'unwatch',
  'count',
  'summarize',
  'translate',
  'pin',
  'report_on',
];

/** Every tool of the catalog, by name. */
export function createCatalog(): Record<string, AppTool> {
  const catalog: Record<string, AppTool> = {};
  for (const [service, thing] of Object.entries(SERVICES)) {
    const object = thing.split(' ').at(-1)!.toLowerCase();
    for (const action of ACTIONS) {
      catalog[`${service}__${action}_${object}`] = {
        description: `${action.replace('_', ' ')} a ${thing}`.replace(/^./, (first) =>
          first.toUpperCase(),
        ),
        parameters: {
          type: 'object',
          properties: {
            id: { type: 'string', description: `The ${thing} to act on` },
            text: { type: 'string', description: 'A title, a body or a comment' },
          },
        },
        run: (input) => ({ ok: true, tool: `${service}__${action}_${object}`, ...input }),
      };
    }
  }
  return catalog;
}

/**
 * The namespace a tool is listed in: one per service, as one per MCP server would be.
 * @param id - the tool's name, `<service>__<action>`
 */
export function namespaceOf(id: string): { name: string; description: string } {
  const service = id.split('__')[0]!;
  const thing = SERVICES[service as keyof typeof SERVICES] ?? service;
  return { name: service, description: `Tools for the ${thing}s of ${service}` };
}
