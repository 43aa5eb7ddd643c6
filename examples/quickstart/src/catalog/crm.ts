import { choose, clamp, FIXED_ISO, fakeId, n, pick, record, s } from './input';
import { arr, bool, type ExampleTool, enumOf, int, num, obj, str, tool } from './types';

const STAGES = ['prospecting', 'qualification', 'proposal', 'negotiation', 'won', 'lost'] as const;

const contactFields = {
  firstName: str('First name.'),
  lastName: str('Last name.'),
  email: str('Email address.', { format: 'email' }),
  phone: str('Phone number in E.164 format.'),
  company: str('Company name.'),
  title: str('Job title.'),
};

export const crmTools: ExampleTool[] = [
  tool(
    'crm__search_contacts',
    'Search CRM contacts by name, email or company, returning matching records.',
    {
      query: str('Name, email or company to search for.'),
      ownerId: str('Only contacts owned by this user.'),
      limit: int('Maximum results.', 1, 100),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const count = clamp(n(input, 'limit', 2), 1, 4);
      return {
        contacts: Array.from({ length: count }, (_, i) => ({
          id: fakeId('ct', query + i),
          name: `${query} Contact ${i + 1}`,
          email: `contact${i + 1}@${query.toLowerCase().replace(/\W+/g, '') || 'example'}.com`,
        })),
      };
    },
  ),
  tool(
    'crm__get_contact',
    'Get a contact’s full profile, including company, owner and lifecycle stage.',
    { contactId: str('Contact id.') },
    ['contactId'],
    (input) => {
      const id = s(input, 'contactId', 'ct_0');
      return {
        id,
        name: 'Jordan Example',
        company: 'Acme Corp',
        lifecycleStage: choose(id, ['lead', 'opportunity', 'customer'] as const),
        owner: 'sales@example.com',
      };
    },
  ),
  tool(
    'crm__create_contact',
    'Create a new contact record in the CRM.',
    contactFields,
    ['email'],
    (input) => ({
      id: fakeId('ct', s(input, 'email')),
      email: s(input, 'email'),
      name: `${s(input, 'firstName')} ${s(input, 'lastName')}`.trim() || null,
      createdAt: FIXED_ISO,
    }),
  ),
  tool(
    'crm__update_contact',
    'Update fields on an existing contact.',
    { contactId: str('Contact id.'), fields: obj(contactFields, [], 'Fields to change.') },
    ['contactId', 'fields'],
    (input) => ({
      id: s(input, 'contactId'),
      updated: Object.keys(record(input, 'fields')).sort(),
    }),
  ),
  tool(
    'crm__delete_contact',
    'Archive a contact so it no longer appears in searches.',
    { contactId: str('Contact id.') },
    ['contactId'],
    (input) => ({ id: s(input, 'contactId'), archived: true }),
  ),
  tool(
    'crm__create_deal',
    'Create a deal (opportunity) with an amount, stage and associated contacts.',
    {
      name: str('Deal name.'),
      amount: num('Deal value in the account currency.', 0),
      stage: enumOf(STAGES, 'Pipeline stage.'),
      contactIds: arr(str('Contact id.'), 'Contacts associated with the deal.'),
      closeDate: str('Expected close date, YYYY-MM-DD.'),
    },
    ['name'],
    (input) => ({
      id: fakeId('deal', s(input, 'name')),
      name: s(input, 'name'),
      amount: n(input, 'amount', 0),
      stage: s(input, 'stage', 'prospecting'),
    }),
  ),
  tool(
    'crm__update_deal_stage',
    'Move a deal to a different pipeline stage.',
    {
      dealId: str('Deal id.'),
      stage: enumOf(STAGES, 'New stage.'),
      lostReason: str('Reason, when moving to "lost".'),
    },
    ['dealId', 'stage'],
    (input) => ({
      id: s(input, 'dealId'),
      previousStage: choose(s(input, 'dealId'), STAGES),
      stage: s(input, 'stage'),
    }),
  ),
  tool(
    'crm__list_deals',
    'List deals in the pipeline, optionally filtered by stage and owner.',
    {
      stage: enumOf(STAGES, 'Only deals in this stage.'),
      ownerId: str('Only deals owned by this user.'),
      minAmount: num('Minimum deal amount.', 0),
    },
    [],
    (input) => {
      const stage = s(input, 'stage', 'proposal');
      return {
        deals: [1, 2, 3].map((i) => ({
          id: fakeId('deal', stage + i),
          name: `Deal ${i}`,
          stage,
          amount: Math.max(n(input, 'minAmount', 0), pick(stage + i, 1000, 90000)),
        })),
      };
    },
  ),
  tool(
    'crm__log_activity',
    'Log a call, meeting or email against a contact or deal.',
    {
      type: enumOf(['call', 'meeting', 'email', 'note'], 'Activity type.'),
      subject: str('Short summary.'),
      contactId: str('Contact the activity relates to.'),
      dealId: str('Deal the activity relates to.'),
      durationMinutes: int('Duration for calls and meetings.', 0, 600),
    },
    ['type', 'subject'],
    (input) => ({
      id: fakeId('act', s(input, 'subject')),
      type: s(input, 'type', 'note'),
      loggedAt: FIXED_ISO,
    }),
  ),
  tool(
    'crm__search_companies',
    'Search company accounts by name or domain.',
    { query: str('Company name or web domain.'), industry: str('Filter by industry.') },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        companies: [
          {
            id: fakeId('co', query),
            name: query,
            domain: `${query.toLowerCase().replace(/\W+/g, '') || 'example'}.com`,
            employees: pick(query, 5, 20000),
          },
        ],
      };
    },
  ),
  tool(
    'crm_create_task',
    'Create a follow-up task for a sales rep, linked to a contact or deal.',
    {
      title: str('Task title.'),
      dueDate: str('Due date, YYYY-MM-DD.'),
      assigneeId: str('User id of the assignee.'),
      relatedTo: obj(
        { kind: enumOf(['contact', 'deal', 'company'], 'Record type.'), id: str('Record id.') },
        ['kind', 'id'],
        'The record this task is about.',
      ),
      priority: enumOf(['low', 'normal', 'high'], 'Task priority.'),
    },
    ['title', 'dueDate'],
    (input) => ({
      id: fakeId('task', s(input, 'title')),
      title: s(input, 'title'),
      dueDate: s(input, 'dueDate'),
      status: 'open',
    }),
  ),
  tool(
    'crmGetPipelineSummary',
    'Summarise the sales pipeline: deal counts and totals per stage.',
    { pipelineId: str('Pipeline id; defaults to the main pipeline.') },
    [],
    (input) => {
      const seed = s(input, 'pipelineId', 'default');
      return {
        pipelineId: seed,
        stages: STAGES.map((stage) => ({
          stage,
          count: pick(seed + stage, 0, 30),
          total: pick(`${seed}${stage}$`, 0, 500000),
        })),
      };
    },
  ),
  tool(
    'crm.add-note',
    'Attach a free-text note to a contact, company or deal.',
    {
      recordId: str('Contact, company or deal id.'),
      body: str('Note text.'),
      pinned: bool('Pin.'),
    },
    ['recordId', 'body'],
    (input) => ({ id: fakeId('note', s(input, 'body')), recordId: s(input, 'recordId') }),
  ),
  tool(
    'crm.merge-contacts',
    'Merge a duplicate contact into a primary contact, keeping the primary’s values.',
    { primaryId: str('Contact to keep.'), duplicateId: str('Contact to merge and remove.') },
    ['primaryId', 'duplicateId'],
    (input) => ({ id: s(input, 'primaryId'), mergedFrom: s(input, 'duplicateId') }),
  ),
  tool(
    'crm__enrich_contact',
    'Enrich a contact from public data sources using their email address.',
    { email: str('Email address to enrich.') },
    ['email'],
    (input) => {
      const email = s(input, 'email', 'someone@example.com');
      const domain = email.split('@')[1] ?? 'example.com';
      return {
        email,
        company: domain.split('.')[0] ?? 'example',
        seniority: choose(email, ['junior', 'senior', 'manager', 'director'] as const),
        linkedin: `https://linkedin.example.com/in/${email.split('@')[0] ?? 'user'}`,
      };
    },
  ),
];
