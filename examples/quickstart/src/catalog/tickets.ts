import { choose, clamp, FIXED_ISO, hash, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
const STATUSES = ['todo', 'in_progress', 'in_review', 'done'] as const;
const keyProp = str('Ticket key, e.g. "OPS-123".');
const ticketKey = (project: string, seed: string) =>
  `${(project || 'PRJ').toUpperCase()}-${pick(seed, 1, 999)}`;

export const ticketsTools: ExampleTool[] = [
  tool(
    'jira_create_issue',
    'Create a Jira issue in a project with a type, summary, priority and optional assignee.',
    {
      project: str('Project key, e.g. "OPS".'),
      issueType: enumOf(['bug', 'task', 'story', 'epic'], 'Issue type.'),
      summary: str('One-line summary.'),
      description: str('Detailed description.'),
      priority: enumOf(PRIORITIES, 'Priority.'),
      assignee: str('Account id or email of the assignee.'),
      labels: arr(str('Label.'), 'Labels.'),
    },
    ['project', 'summary'],
    (input) => {
      const key = ticketKey(s(input, 'project'), s(input, 'summary'));
      return { key, url: `https://example.atlassian.net/browse/${key}` };
    },
  ),
  tool(
    'jira_get_issue',
    'Fetch a Jira issue with its status, assignee, priority and description.',
    { key: keyProp },
    ['key'],
    (input) => {
      const key = s(input, 'key', 'PRJ-1');
      return {
        key,
        summary: `Work item ${key}`,
        status: choose(key, STATUSES),
        priority: choose(`${key}p`, PRIORITIES),
        assignee: 'dev@example.com',
      };
    },
  ),
  tool(
    'jira_search_jql',
    'Search Jira issues with a JQL query, e.g. "project = OPS AND status = \'In Progress\'".',
    {
      jql: str('JQL query.'),
      maxResults: int('Maximum issues.', 1, 100),
      fields: arr(str('Field.'), 'Fields to return.'),
    },
    ['jql'],
    (input) => {
      const jql = s(input, 'jql', 'x');
      const count = clamp(n(input, 'maxResults', 3), 1, 5);
      return {
        total: pick(jql, count, 200),
        issues: Array.from({ length: count }, (_, i) => ({
          key: `PRJ-${pick(jql + i, 1, 999)}`,
          status: choose(jql + i, STATUSES),
        })),
      };
    },
  ),
  tool(
    'jira_transition_issue',
    'Move a Jira issue to another workflow status.',
    { key: keyProp, status: enumOf(STATUSES, 'Target status.'), comment: str('Comment to add.') },
    ['key', 'status'],
    (input) => ({
      key: s(input, 'key'),
      from: choose(s(input, 'key'), STATUSES),
      to: s(input, 'status'),
    }),
  ),
  tool(
    'jira_add_comment',
    'Add a comment to a Jira issue.',
    { key: keyProp, body: str('Comment text.'), internal: bool('Visible to the team only.') },
    ['key', 'body'],
    (input) => ({
      id: String(hash(s(input, 'body')) % 100000),
      key: s(input, 'key'),
      created: FIXED_ISO,
    }),
  ),
  tool(
    'jiraAssignIssue',
    'Assign a Jira issue to a user, or unassign it.',
    { key: keyProp, assignee: str('Account id or email; empty to unassign.') },
    ['key'],
    (input) => ({ key: s(input, 'key'), assignee: s(input, 'assignee') || null }),
  ),
  tool(
    'jiraLinkIssues',
    'Create a link such as "blocks" or "duplicates" between two Jira issues.',
    {
      from: keyProp,
      to: keyProp,
      type: enumOf(['blocks', 'relates_to', 'duplicates', 'clones'], 'Link type.'),
    },
    ['from', 'to', 'type'],
    (input) => ({
      linked: true,
      from: s(input, 'from'),
      to: s(input, 'to'),
      type: s(input, 'type'),
    }),
  ),
  tool(
    'jiraGetSprint',
    'Get the active sprint for a board with its goal, dates and issue counts.',
    { boardId: int('Board id.', 1) },
    ['boardId'],
    (input) => {
      const board = n(input, 'boardId', 1);
      return {
        id: board * 10 + 3,
        name: `Sprint ${board + 20}`,
        goal: 'Ship the onboarding revamp',
        issues: { todo: board % 7, inProgress: 4, done: 9 },
      };
    },
  ),
  tool(
    'jira.log-work',
    'Log time spent on a Jira issue.',
    {
      key: keyProp,
      minutes: int('Time spent in minutes.', 1, 1440),
      comment: str('Work description.'),
    },
    ['key', 'minutes'],
    (input) => ({
      key: s(input, 'key'),
      loggedMinutes: n(input, 'minutes', 0),
      started: FIXED_ISO,
    }),
  ),
  tool(
    'zendesk_create_ticket',
    'Open a customer support ticket on behalf of a requester.',
    {
      subject: str('Ticket subject.'),
      description: str('First message from the customer.'),
      requester: obj({ name: str('Name.'), email: str('Email.') }, ['email'], 'Who raised it.'),
      priority: enumOf(PRIORITIES, 'Priority.'),
      tags: arr(str('Tag.'), 'Tags.'),
    },
    ['subject', 'description', 'requester'],
    (input) => ({ id: pick(s(input, 'subject'), 10000, 99999), status: 'new' }),
  ),
  tool(
    'zendesk_update_ticket',
    'Change a support ticket’s status, priority, assignee or tags.',
    {
      ticketId: int('Ticket id.', 1),
      status: enumOf(['open', 'pending', 'on_hold', 'solved', 'closed'], 'New status.'),
      priority: enumOf(PRIORITIES, 'New priority.'),
      assigneeEmail: str('Agent to assign.'),
      tags: arr(str('Tag.'), 'Tags to set.'),
    },
    ['ticketId'],
    (input) => ({
      id: n(input, 'ticketId', 1),
      status: s(input, 'status', 'open'),
      tags: strings(input, 'tags'),
    }),
  ),
  tool(
    'zendeskReplyToTicket',
    'Send a public reply to the customer or add a private internal note to a ticket.',
    {
      ticketId: int('Ticket id.', 1),
      body: str('Reply text.'),
      public: bool('Send to the customer.'),
    },
    ['ticketId', 'body'],
    (input) => ({
      ticketId: n(input, 'ticketId', 1),
      public: input.public !== false,
      commentId: hash(s(input, 'body')) % 1000000,
    }),
  ),
  tool(
    'zendesk__search_tickets',
    'Search support tickets by text, status, requester or tag.',
    {
      query: str('Search text, e.g. "refund status:open".'),
      sortBy: enumOf(['created_at', 'updated_at', 'priority'], 'Sort field.'),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        count: 2,
        tickets: [1, 2].map((i) => ({
          id: pick(query + i, 10000, 99999),
          subject: `Customer question about ${query}`,
          status: choose(query + i, ['open', 'pending', 'solved'] as const),
        })),
      };
    },
  ),
  tool(
    'zendesk__get_ticket_metrics',
    'Get response and resolution times for a support ticket.',
    { ticketId: int('Ticket id.', 1) },
    ['ticketId'],
    (input) => {
      const id = n(input, 'ticketId', 1);
      return {
        ticketId: id,
        firstReplyMinutes: 15 + (id % 120),
        fullResolutionMinutes: 300 + (id % 900),
        reopens: id % 3,
      };
    },
  ),
  tool(
    'helpdesk.apply-macro',
    'Apply a saved macro (canned response plus field changes) to a ticket.',
    { ticketId: int('Ticket id.', 1), macroId: str('Macro id.') },
    ['ticketId', 'macroId'],
    (input) => ({ ticketId: n(input, 'ticketId', 1), macroId: s(input, 'macroId'), applied: true }),
  ),
];
