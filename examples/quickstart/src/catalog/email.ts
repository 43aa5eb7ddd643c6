import { clamp, FIXED_ISO, fakeId, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const emailList = (description: string) =>
  arr(str('Email address.', { format: 'email' }), description);
const messageId = str('Message id.');

export const emailTools: ExampleTool[] = [
  tool(
    'email_send',
    'Send an email to one or more recipients, with optional CC, BCC and attachments.',
    {
      to: emailList('Primary recipients.'),
      cc: emailList('Carbon-copy recipients.'),
      bcc: emailList('Blind carbon-copy recipients.'),
      subject: str('Subject line.'),
      body: str('Message body.'),
      format: enumOf(['text', 'html'], 'Body format.'),
      attachments: arr(
        obj({ filename: str('File name.'), url: str('Where to fetch the file from.') }, [
          'filename',
        ]),
        'Files to attach.',
      ),
    },
    ['to', 'subject', 'body'],
    (input) => ({
      id: fakeId('msg', s(input, 'subject') + strings(input, 'to').join()),
      threadId: fakeId('thr', s(input, 'subject')),
      recipients: strings(input, 'to').length + strings(input, 'cc').length,
      status: 'sent',
    }),
  ),
  tool(
    'email_search',
    'Search the mailbox using a query such as "from:alice has:attachment invoice".',
    {
      query: str('Search query with optional from:, to:, subject: and has: operators.'),
      folder: enumOf(['inbox', 'sent', 'drafts', 'archive', 'all'], 'Folder to search.'),
      maxResults: int('Maximum messages.', 1, 100),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const count = clamp(n(input, 'maxResults', 3), 1, 5);
      return {
        messages: Array.from({ length: count }, (_, i) => ({
          id: fakeId('msg', query + i),
          from: `sender${i + 1}@example.com`,
          subject: `Re: ${query}`,
          snippet: `…matching "${query}"…`,
        })),
      };
    },
  ),
  tool(
    'email_get_message',
    'Fetch a full email message including headers, body and attachment list.',
    { messageId, includeBody: bool('Return the body text.') },
    ['messageId'],
    (input) => {
      const id = s(input, 'messageId', 'msg_0');
      const result: Record<string, unknown> = {
        id,
        from: 'billing@vendor.example.com',
        subject: `Invoice ${pick(id, 1000, 9999)}`,
        date: FIXED_ISO,
        attachments: [{ filename: 'invoice.pdf', size: pick(id, 10000, 90000) }],
      };
      if (input.includeBody !== false) result.body = 'Please find the invoice attached.';
      return result;
    },
  ),
  tool(
    'email_reply',
    'Reply to a message, keeping it in the same thread.',
    { messageId, body: str('Reply text.'), replyAll: bool('Reply to all recipients.') },
    ['messageId', 'body'],
    (input) => ({
      id: fakeId('msg', s(input, 'messageId') + s(input, 'body')),
      inReplyTo: s(input, 'messageId'),
      replyAll: input.replyAll === true,
    }),
  ),
  tool(
    'email_forward',
    'Forward a message to new recipients with an optional note.',
    {
      messageId,
      to: emailList('Recipients.'),
      note: str('Text added above the forwarded message.'),
    },
    ['messageId', 'to'],
    (input) => ({ id: fakeId('msg', `fwd${s(input, 'messageId')}`), to: strings(input, 'to') }),
  ),
  tool(
    'emailCreateDraft',
    'Save an email as a draft without sending it.',
    { to: emailList('Recipients.'), subject: str('Subject line.'), body: str('Body text.') },
    ['subject'],
    (input) => ({ draftId: fakeId('dft', s(input, 'subject')), subject: s(input, 'subject') }),
  ),
  tool(
    'emailSendDraft',
    'Send a previously saved draft.',
    { draftId: str('Draft id.') },
    ['draftId'],
    (input) => ({ id: fakeId('msg', s(input, 'draftId')), status: 'sent' }),
  ),
  tool(
    'emailArchive',
    'Archive messages, removing them from the inbox.',
    { messageIds: arr(str('Message id.'), 'Messages to archive.') },
    ['messageIds'],
    (input) => ({ archived: strings(input, 'messageIds').length }),
  ),
  tool(
    'emailMarkRead',
    'Mark messages as read or unread.',
    { messageIds: arr(str('Message id.'), 'Messages to update.'), read: bool('True for read.') },
    ['messageIds', 'read'],
    (input) => ({ updated: strings(input, 'messageIds').length, read: input.read !== false }),
  ),
  tool(
    'email.apply-label',
    'Add or remove labels (folders/tags) on messages.',
    {
      messageIds: arr(str('Message id.'), 'Messages to label.'),
      add: arr(str('Label name.'), 'Labels to add.'),
      remove: arr(str('Label name.'), 'Labels to remove.'),
    },
    ['messageIds'],
    (input) => ({
      updated: strings(input, 'messageIds').length,
      added: strings(input, 'add'),
      removed: strings(input, 'remove'),
    }),
  ),
  tool('email.list-labels', 'List the mailbox labels with their unread counts.', {}, [], () => ({
    labels: [
      { name: 'Inbox', unread: 12 },
      { name: 'Receipts', unread: 0 },
      { name: 'Newsletters', unread: 37 },
    ],
  })),
  tool(
    'email__create_filter',
    'Create a rule that automatically labels, archives or forwards matching incoming mail.',
    {
      criteria: obj(
        {
          from: str('Sender contains.'),
          subject: str('Subject contains.'),
          hasAttachment: bool('Has attachment.'),
        },
        [],
        'Which messages the filter matches.',
      ),
      action: obj(
        {
          addLabel: str('Label to apply.'),
          archive: bool('Skip the inbox.'),
          forwardTo: str('Forward to this address.'),
        },
        [],
        'What to do with matching messages.',
      ),
    },
    ['criteria', 'action'],
    (input) => ({ filterId: fakeId('flt', JSON.stringify(input.criteria ?? {})), active: true }),
  ),
  tool(
    'email__set_auto_reply',
    'Turn the out-of-office auto reply on or off.',
    {
      enabled: bool('Whether the auto reply is active.'),
      message: str('Auto reply text.'),
      startDate: str('First day, YYYY-MM-DD.'),
      endDate: str('Last day, YYYY-MM-DD.'),
    },
    ['enabled'],
    (input) => ({ enabled: input.enabled === true, endDate: s(input, 'endDate') || null }),
  ),
  tool(
    'email__get_thread',
    'Fetch every message in an email conversation thread.',
    { threadId: str('Thread id.') },
    ['threadId'],
    (input) => {
      const id = s(input, 'threadId', 'thr_0');
      return {
        threadId: id,
        messages: [1, 2, 3].slice(0, pick(id, 1, 3)).map((i) => ({
          id: fakeId('msg', id + i),
          from: `person${i}@example.com`,
        })),
      };
    },
  ),
  tool(
    'email_unsubscribe',
    'Unsubscribe from a mailing list using the List-Unsubscribe header of a message.',
    { messageId },
    ['messageId'],
    (input) => ({ messageId: s(input, 'messageId'), unsubscribed: true, method: 'one-click' }),
  ),
];
