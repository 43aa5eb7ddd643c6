import { choose, clamp, FIXED_ISO, fakeId, hash, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const NETWORKS = ['x', 'linkedin', 'mastodon', 'bluesky', 'instagram'] as const;
const networkProp = enumOf(NETWORKS, 'Social network.');
const postIdProp = str('Post id.');

export const socialTools: ExampleTool[] = [
  tool(
    'social_publish_post',
    'Publish a post to a connected social account, with optional images.',
    {
      network: networkProp,
      text: str('Post text.'),
      mediaUrls: arr(str('Image or video URL.'), 'Media to attach.'),
      replyToId: str('Post id to reply to.'),
    },
    ['network', 'text'],
    (input) => {
      const id = fakeId('post', s(input, 'network') + s(input, 'text'));
      return {
        id,
        network: s(input, 'network', 'x'),
        url: `https://social.example.com/p/${id}`,
        mediaCount: strings(input, 'mediaUrls').length,
      };
    },
  ),
  tool(
    'social_schedule_post',
    'Schedule a post to go out on several networks at a given time.',
    {
      networks: arr(networkProp, 'Networks to post to.'),
      text: str('Post text.'),
      publishAt: str('ISO 8601 publish time.', { format: 'date-time' }),
    },
    ['networks', 'text', 'publishAt'],
    (input) => ({
      scheduleId: fakeId('sch', s(input, 'text') + s(input, 'publishAt')),
      networks: strings(input, 'networks'),
      publishAt: s(input, 'publishAt'),
    }),
  ),
  tool(
    'social_delete_post',
    'Delete a previously published post.',
    { network: networkProp, postId: postIdProp },
    ['network', 'postId'],
    (input) => ({ postId: s(input, 'postId'), deleted: true }),
  ),
  tool(
    'social_get_post_metrics',
    'Get likes, reposts, replies and impressions for a post.',
    { network: networkProp, postId: postIdProp },
    ['network', 'postId'],
    (input) => {
      const id = s(input, 'postId', 'post');
      return {
        postId: id,
        likes: pick(id, 0, 5000),
        reposts: pick(`${id}r`, 0, 800),
        replies: pick(`${id}c`, 0, 300),
        impressions: pick(`${id}i`, 100, 200000),
      };
    },
  ),
  tool(
    'socialSearchPosts',
    'Search public posts by keyword or hashtag.',
    {
      query: str('Keyword or #hashtag.'),
      network: networkProp,
      limit: int('Maximum posts.', 1, 100),
      language: str('ISO language code.'),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      const count = clamp(n(input, 'limit', 3), 1, 5);
      return {
        posts: Array.from({ length: count }, (_, i) => ({
          id: fakeId('post', query + i),
          author: `@user${pick(query + i, 1, 999)}`,
          text: `Thoughts on ${query}`,
          likes: pick(`${query}${i}l`, 0, 900),
        })),
      };
    },
  ),
  tool(
    'socialGetProfile',
    'Look up a public profile by handle: bio, follower count and verification.',
    { network: networkProp, handle: str('Handle without @.') },
    ['handle'],
    (input) => {
      const handle = s(input, 'handle', 'someone');
      return {
        handle,
        displayName: handle.charAt(0).toUpperCase() + handle.slice(1),
        followers: pick(handle, 0, 1000000),
        verified: hash(handle) % 5 === 0,
      };
    },
  ),
  tool(
    'socialListMentions',
    'List recent posts that mention the connected account.',
    {
      network: networkProp,
      since: str('Only mentions after this ISO time.'),
      unreadOnly: bool('Only unread.'),
    },
    ['network'],
    (input) => {
      const network = s(input, 'network', 'x');
      return {
        mentions: [1, 2].map((i) => ({
          id: fakeId('post', network + i),
          from: `@fan${i}`,
          text: 'Love this!',
          at: FIXED_ISO,
        })),
      };
    },
  ),
  tool(
    'socialReplyToPost',
    'Reply publicly to a post.',
    { network: networkProp, postId: postIdProp, text: str('Reply text.') },
    ['network', 'postId', 'text'],
    (input) => ({
      id: fakeId('post', s(input, 'postId') + s(input, 'text')),
      inReplyTo: s(input, 'postId'),
    }),
  ),
  tool(
    'social.send-direct-message',
    'Send a private direct message to a user.',
    { network: networkProp, recipient: str('Recipient handle.'), text: str('Message text.') },
    ['network', 'recipient', 'text'],
    (input) => ({
      messageId: fakeId('dm', s(input, 'recipient') + s(input, 'text')),
      delivered: true,
    }),
  ),
  tool(
    'social.get-follower-growth',
    'Report follower growth for the connected account over a period.',
    { network: networkProp, period: enumOf(['7d', '30d', '90d'], 'Reporting period.') },
    ['network'],
    (input) => {
      const key = s(input, 'network') + s(input, 'period', '30d');
      const start = pick(key, 1000, 50000);
      const gained = pick(`${key}g`, 0, 2000);
      return {
        period: s(input, 'period', '30d'),
        startFollowers: start,
        endFollowers: start + gained,
        netGain: gained,
      };
    },
  ),
  tool(
    'social__analyze_sentiment',
    'Classify the sentiment of posts or comments about a brand or topic.',
    {
      texts: arr(str('Post or comment text.'), 'Texts to score.'),
      topic: str('Brand or topic for context.'),
    },
    ['texts'],
    (input) => ({
      results: strings(input, 'texts').map((text) => ({
        text,
        sentiment: choose(text, ['positive', 'neutral', 'negative'] as const),
        score: Number(((hash(text) % 200) / 100 - 1).toFixed(2)),
      })),
    }),
  ),
  tool(
    'social__trending_topics',
    'Get trending hashtags and topics for a country.',
    {
      network: networkProp,
      country: str('Two-letter country code.'),
      limit: int('How many.', 1, 50),
    },
    [],
    (input) => {
      const country = s(input, 'country', 'US');
      const count = clamp(n(input, 'limit', 3), 1, 5);
      return {
        country,
        trends: Array.from({ length: count }, (_, i) => ({
          tag: `#trend${pick(country + i, 1, 99)}`,
          postVolume: pick(`${country}v${i}`, 1000, 500000),
        })),
      };
    },
  ),
  tool(
    'social__create_ad_campaign',
    'Create a paid social ad campaign with a daily budget and audience.',
    {
      network: networkProp,
      name: str('Campaign name.'),
      objective: enumOf(['awareness', 'traffic', 'engagement', 'leads', 'sales'], 'Campaign goal.'),
      dailyBudget: int('Daily budget in cents.', 100),
      audience: obj(
        {
          countries: arr(str('Country code.'), 'Target countries.'),
          ageMin: int('Minimum age.', 13, 65),
          ageMax: int('Maximum age.', 13, 65),
          interests: arr(str('Interest.'), 'Interests.'),
        },
        ['countries'],
        'Targeting.',
      ),
    },
    ['network', 'name', 'objective', 'dailyBudget'],
    (input) => ({
      campaignId: fakeId('cmp', s(input, 'name')),
      status: 'paused',
      dailyBudget: n(input, 'dailyBudget', 100),
    }),
  ),
];
