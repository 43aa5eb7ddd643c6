// A 1,000-tool catalog for the provider-native tests: 50 services × 20 actions, each tool named
// `<service>__<action>_<object>` (the gateway's convention) with a description and a JSON Schema.

/** One tool of the catalog, in the shape the core's `describe` returns plus its service. */
export interface LargeCatalogTool {
  id: string;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, { type: 'string'; description: string }>;
    required: string[];
  };
  /** The service it belongs to: what a test groups namespaces by. */
  service: { name: string; title: string; object: string };
}

/** Services, each with the thing its tools act on. */
const SERVICES: [name: string, title: string, object: string][] = [
  ['github', 'GitHub', 'issue'],
  ['gitlab', 'GitLab', 'merge request'],
  ['jira', 'Jira', 'ticket'],
  ['linear', 'Linear', 'project issue'],
  ['slack', 'Slack', 'channel message'],
  ['discord', 'Discord', 'server post'],
  ['gmail', 'Gmail', 'email'],
  ['outlook', 'Outlook', 'mail item'],
  ['salesforce', 'Salesforce', 'account'],
  ['hubspot', 'HubSpot', 'contact'],
  ['stripe', 'Stripe', 'payment'],
  ['paypal', 'PayPal', 'payout'],
  ['shopify', 'Shopify', 'order'],
  ['zendesk', 'Zendesk', 'support ticket'],
  ['intercom', 'Intercom', 'conversation'],
  ['notion', 'Notion', 'page'],
  ['confluence', 'Confluence', 'wiki page'],
  ['asana', 'Asana', 'task'],
  ['trello', 'Trello', 'card'],
  ['figma', 'Figma', 'design file'],
  ['dropbox', 'Dropbox', 'file'],
  ['box', 'Box', 'folder'],
  ['gdrive', 'Google Drive', 'document'],
  ['onedrive', 'OneDrive', 'spreadsheet'],
  ['twilio', 'Twilio', 'text message'],
  ['sendgrid', 'SendGrid', 'campaign'],
  ['mailchimp', 'Mailchimp', 'newsletter'],
  ['pagerduty', 'PagerDuty', 'incident'],
  ['datadog', 'Datadog', 'monitor'],
  ['sentry', 'Sentry', 'error event'],
  ['grafana', 'Grafana', 'dashboard'],
  ['s3', 'Amazon S3', 'bucket object'],
  ['ec2', 'Amazon EC2', 'instance'],
  ['kubernetes', 'Kubernetes', 'deployment'],
  ['docker', 'Docker Hub', 'image'],
  ['vercel', 'Vercel', 'deployment preview'],
  ['cloudflare', 'Cloudflare', 'DNS record'],
  ['postgres', 'PostgreSQL', 'table row'],
  ['mongodb', 'MongoDB', 'collection document'],
  ['snowflake', 'Snowflake', 'warehouse query'],
  ['bigquery', 'BigQuery', 'dataset'],
  ['airtable', 'Airtable', 'base record'],
  ['calendar', 'Google Calendar', 'event'],
  ['zoom', 'Zoom', 'meeting'],
  ['spotify', 'Spotify', 'playlist'],
  ['youtube', 'YouTube', 'video'],
  ['twitter', 'X (Twitter)', 'tweet'],
  ['weather', 'OpenWeather', 'forecast'],
  ['maps', 'Google Maps', 'route'],
  ['quickbooks', 'QuickBooks', 'invoice'],
];

/** Actions, each with how its description starts. */
const ACTIONS: [name: string, verb: string][] = [
  ['create', 'Create a new'],
  ['get', 'Get one'],
  ['update', 'Update one existing'],
  ['delete', 'Delete one'],
  ['list', 'List every'],
  ['search', 'Search for one'],
  ['comment', 'Add a comment to one'],
  ['assign', 'Assign a person to one'],
  ['archive', 'Archive one old'],
  ['restore', 'Restore one archived'],
  ['export', 'Export as CSV one'],
  ['import', 'Import from a file one'],
  ['share', 'Share with a teammate one'],
  ['tag', 'Add labels to one'],
  ['move', 'Move to another place one'],
  ['copy', 'Duplicate one'],
  ['lock', 'Lock against edits one'],
  ['watch', 'Subscribe to changes of one'],
  ['count', 'Count by status every'],
  ['history', 'Show the change history of one'],
];

/**
 * The catalog, in a fixed order: 1,000 tools by default (fewer takes the first services' tools).
 * @param size - how many tools, at most 1,000
 */
export function createLargeCatalog(size = 1_000): LargeCatalogTool[] {
  const tools: LargeCatalogTool[] = [];
  for (const [name, title, object] of SERVICES) {
    for (const [action, verb] of ACTIONS) {
      const noun = object.replace(/[^a-z]+/g, '_');
      tools.push({
        id: `${name}__${action}_${noun}`,
        description: `${verb} ${object} in ${title}.`,
        inputSchema: {
          type: 'object',
          properties: {
            [`${noun}_id`]: { type: 'string', description: `The ${title} ${object} to act on` },
            note: { type: 'string', description: 'Free text: a title, a body or a reason' },
          },
          required: action === 'create' || action === 'list' ? ['note'] : [`${noun}_id`],
        },
        service: { name, title, object },
      });
    }
  }
  return tools.slice(0, size);
}
