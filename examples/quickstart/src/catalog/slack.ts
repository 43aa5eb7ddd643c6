import { clamp, fakeId, hash, n, pick, s, slug, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const channelProp = str('Channel id or name, e.g. "C024BE91L" or "#general".');
const ts = (seed: string) => `1700000000.${String(hash(seed) % 1000000).padStart(6, '0')}`;

export const slackTools: ExampleTool[] = [
  tool(
    'slackPostMessage',
    'Post a message to a Slack channel, optionally as a threaded reply.',
    {
      channel: channelProp,
      text: str('Message text; supports Slack mrkdwn.'),
      threadTs: str('Timestamp of the parent message to reply in a thread.'),
      unfurlLinks: bool('Whether to show link previews.'),
    },
    ['channel', 'text'],
    (input) => ({ ok: true, channel: s(input, 'channel'), ts: '1700000000.000100' }),
  ),
  tool(
    'slackUpdateMessage',
    'Edit the text of a message the app previously posted.',
    { channel: channelProp, ts: str('Timestamp of the message to edit.'), text: str('New text.') },
    ['channel', 'ts', 'text'],
    (input) => ({
      ok: true,
      channel: s(input, 'channel'),
      ts: s(input, 'ts'),
      text: s(input, 'text'),
    }),
  ),
  tool(
    'slackDeleteMessage',
    'Delete a message from a channel by its timestamp.',
    { channel: channelProp, ts: str('Timestamp of the message to delete.') },
    ['channel', 'ts'],
    (input) => ({ ok: true, channel: s(input, 'channel'), ts: s(input, 'ts') }),
  ),
  tool(
    'slackListChannels',
    'List public and private channels in the workspace that the app can see.',
    {
      types: arr(enumOf(['public_channel', 'private_channel', 'mpim', 'im'], 'Type.'), 'Types.'),
      excludeArchived: bool('Leave out archived channels.'),
      limit: int('Maximum number of channels.', 1, 1000),
    },
    [],
    (input) => {
      const limit = clamp(n(input, 'limit', 3), 1, 4);
      const names = ['general', 'random', 'engineering', 'design'];
      return {
        ok: true,
        channels: names.slice(0, limit).map((name) => ({
          id: `C${hash(name).toString(36).toUpperCase().slice(0, 8)}`,
          name,
          memberCount: pick(name, 3, 400),
        })),
      };
    },
  ),
  tool(
    'slackCreateChannel',
    'Create a new public or private channel.',
    { name: str('Channel name, lowercase without spaces.'), isPrivate: bool('Create as private.') },
    ['name'],
    (input) => ({
      ok: true,
      channel: {
        id: `C${hash(s(input, 'name')).toString(36).toUpperCase().slice(0, 8)}`,
        name: slug(s(input, 'name', 'new-channel')),
        isPrivate: input.isPrivate === true,
      },
    }),
  ),
  tool(
    'slackInviteToChannel',
    'Invite one or more users to a channel.',
    { channel: channelProp, users: arr(str('User id.'), 'User ids to invite.') },
    ['channel', 'users'],
    (input) => ({ ok: true, channel: s(input, 'channel'), invited: strings(input, 'users') }),
  ),
  tool(
    'slackGetChannelHistory',
    'Fetch recent messages from a channel, newest first.',
    {
      channel: channelProp,
      limit: int('Number of messages.', 1, 200),
      oldest: str('Only messages after this timestamp.'),
    },
    ['channel'],
    (input) => {
      const channel = s(input, 'channel', 'general');
      const limit = clamp(n(input, 'limit', 3), 1, 5);
      return {
        ok: true,
        messages: Array.from({ length: limit }, (_, i) => ({
          ts: ts(channel + i),
          user: `U${pick(channel + i, 1000, 9999)}`,
          text: `Message ${i + 1} in ${channel}`,
        })),
      };
    },
  ),
  tool(
    'slackGetThreadReplies',
    'Fetch all replies in a message thread.',
    { channel: channelProp, threadTs: str('Timestamp of the parent message.') },
    ['channel', 'threadTs'],
    (input) => {
      const seed = s(input, 'threadTs');
      return {
        ok: true,
        replies: [1, 2].map((i) => ({ ts: ts(seed + i), text: `Reply ${i}` })),
      };
    },
  ),
  tool(
    'slackAddReaction',
    'Add an emoji reaction to a message.',
    {
      channel: channelProp,
      ts: str('Timestamp of the message.'),
      emoji: str('Emoji name without colons, e.g. "thumbsup".'),
    },
    ['channel', 'ts', 'emoji'],
    (input) => ({ ok: true, emoji: s(input, 'emoji', 'thumbsup') }),
  ),
  tool(
    'slackSearchMessages',
    'Search messages across the workspace with Slack search modifiers such as in: and from:.',
    {
      query: str('Search query, e.g. "deploy in:#ops from:@alice".'),
      sort: enumOf(['score', 'timestamp'], 'Sort order.'),
      count: int('Results per page.', 1, 100),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        ok: true,
        total: pick(query, 0, 80),
        matches: [1, 2].map((i) => ({
          channel: `#channel-${pick(query + i, 1, 9)}`,
          ts: ts(query + i),
          text: `…${query}…`,
        })),
      };
    },
  ),
  tool(
    'slackGetUserInfo',
    'Look up a Slack user by id, returning display name, title, timezone and status.',
    { user: str('User id, e.g. "U12345".') },
    ['user'],
    (input) => {
      const user = s(input, 'user', 'U00000');
      return {
        ok: true,
        user: {
          id: user,
          displayName: `member-${hash(user) % 1000}`,
          tz: 'Europe/London',
          isBot: false,
        },
      };
    },
  ),
  tool(
    'slackLookupUserByEmail',
    'Find a Slack user by their email address.',
    { email: str('Email address.', { format: 'email' }) },
    ['email'],
    (input) => ({
      ok: true,
      user: { id: `U${pick(s(input, 'email'), 10000, 99999)}`, email: s(input, 'email') },
    }),
  ),
  tool(
    'slackSetStatus',
    'Set the calling user’s status text, emoji and optional expiry.',
    {
      text: str('Status text, e.g. "In a meeting".'),
      emoji: str('Status emoji, e.g. ":calendar:".'),
      expiresInMinutes: int('Clear the status after this many minutes.', 0, 10080),
    },
    ['text'],
    (input) => ({
      ok: true,
      profile: { statusText: s(input, 'text'), statusEmoji: s(input, 'emoji', ':speech_balloon:') },
    }),
  ),
  tool(
    'slack.schedule-message',
    'Schedule a message to be posted to a channel at a future time.',
    {
      channel: channelProp,
      text: str('Message text.'),
      postAt: str('ISO 8601 time to post at.', { format: 'date-time' }),
    },
    ['channel', 'text', 'postAt'],
    (input) => ({
      ok: true,
      scheduledMessageId: fakeId('Q', s(input, 'text') + s(input, 'postAt')),
      postAt: s(input, 'postAt'),
    }),
  ),
  tool(
    'slack__upload_file',
    'Upload a text snippet or file content to one or more channels.',
    {
      channels: arr(str('Channel id.'), 'Channels to share the file in.'),
      filename: str('File name including extension.'),
      content: str('File content as text.'),
      initialComment: str('Message posted alongside the file.'),
    },
    ['channels', 'filename', 'content'],
    (input) => ({
      ok: true,
      file: {
        id: fakeId('F', s(input, 'filename')),
        name: s(input, 'filename', 'file.txt'),
        size: s(input, 'content').length,
        sharedIn: strings(input, 'channels'),
      },
    }),
  ),
  tool(
    'slack__send_blocks',
    'Post a rich Block Kit message built from section blocks with optional buttons.',
    {
      channel: channelProp,
      blocks: arr(
        obj(
          {
            text: str('Section text in mrkdwn.'),
            button: obj(
              { label: str('Button label.'), url: str('Link target.') },
              ['label'],
              'Optional link button shown beside the text.',
            ),
          },
          ['text'],
        ),
        'Blocks to render, top to bottom.',
      ),
    },
    ['channel', 'blocks'],
    (input) => ({
      ok: true,
      channel: s(input, 'channel'),
      ts: ts(s(input, 'channel')),
      blockCount: Array.isArray(input.blocks) ? input.blocks.length : 0,
    }),
  ),
];
