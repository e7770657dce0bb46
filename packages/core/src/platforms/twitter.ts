import { definePlatform, IMAGE_OR_VIDEO, mediaRule } from './description';

export const twitter = definePlatform({
  id: 'twitter',
  name: 'X',
  // X is Twitter's name since 2023.
  aliases: ['x'],
  info: {
    types: ['tweet'],
    defaultType: 'tweet',
    caption: { max: 280, counting: 'x-weighted' },
    media: { tweet: mediaRule(0, 4, IMAGE_OR_VIDEO) },
    pullsMedia: false,
  },
  // X shows a single image or video at 16:9 in the timeline.
  frames: { tweet: { ratio: '16:9', caption: true } },
  optionWords: {
    reply_settings: {
      label: 'Who can reply',
      choices: { everyone: 'Everyone', following: 'Accounts you follow', mentionedUsers: 'Only accounts you mention', subscribers: 'Your subscribers', verified: 'Verified accounts' },
    },
    poll: { label: 'Poll', help: 'A post with a poll takes no media and quotes no post.' },
    'poll.options': { label: 'Choices', help: '2 to 4 choices, each at most 25 characters.' },
    'poll.duration_minutes': { label: 'Open for', help: '5 minutes to 7 days.' },
    quote_tweet_id: { label: 'Quote post (its id)' },
  },
  followUps: { thread: true, firstComment: true, commentIsPost: true, refusesRepeatedText: true },
  takedown: true,
  connect: {
    flags: [
      { flags: '--consumer-key <key>', description: 'twitter OAuth 1.0a: the app API key', option: 'consumerKey', implies: { auth: 'oauth1' } },
      { flags: '--consumer-secret <secret>', description: 'twitter OAuth 1.0a: the app API key secret', option: 'consumerSecret' },
      { flags: '--access-token <token>', description: 'twitter OAuth 1.0a: your access token', option: 'accessToken' },
      { flags: '--access-secret <secret>', description: 'twitter OAuth 1.0a: your access token secret', option: 'accessTokenSecret' },
    ],
    together: [{ flags: ['--access-token', '--access-secret'], what: 'an OAuth 1.0a user token pair' }],
    questions: {
      'OAuth 2.0 client id': '--client-id (the X OAuth 2.0 client id)',
      'Client secret (empty for a public client)': '--client-secret (the X OAuth 2.0 client secret)',
      'API key (consumer key)': '--consumer-key (the X app API key)',
      'API key secret': '--consumer-secret (the X app API key secret)',
      'Access token': '--access-token',
      'Access token secret': '--access-secret',
      'How should socialpub sign in to X?': '--client-id (OAuth 2.0 in the browser) or --consumer-key, --consumer-secret, --access-token and --access-secret (OAuth 1.0a)',
    },
    examples: ['socialpub connect twitter --sandbox', 'socialpub connect twitter --consumer-key K --consumer-secret S --access-token T --access-secret TS'],
  },
  cli: { optionExamples: ['twitter.poll.options=Yes,No'] },
  mcp: {},
  docs: { page: 'docs/platforms/twitter.md', summary: 'Tweets with up to four images or a video, polls, reply chains, through X API v2 (OAuth 2.0 or OAuth 1.0a user tokens).' },
});
