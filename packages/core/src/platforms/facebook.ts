import { definePlatform, IMAGE_OR_VIDEO, mediaRule, VIDEO } from './description';

export const facebook = definePlatform({
  id: 'facebook',
  name: 'Facebook',
  info: {
    types: ['feed', 'story', 'reels'],
    defaultType: 'feed',
    caption: { max: 63206, counting: 'characters' },
    media: { feed: mediaRule(0, 10, IMAGE_OR_VIDEO), story: mediaRule(1, 10, IMAGE_OR_VIDEO, false), reels: mediaRule(1, 1, VIDEO) },
    pullsMedia: false,
  },
  // Page stories are a 9:16 screen with no text (the stories endpoints take none); reels are 9:16.
  frames: { feed: { ratio: '1:1', caption: true }, story: { ratio: '9:16', caption: false }, reels: { ratio: '9:16', caption: true } },
  optionWords: {
    link: { label: 'Shared link' },
    place: { label: 'Check in at (a Facebook Page id)' },
  },
  followUps: { thread: false, firstComment: true, commentIsPost: false, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [{ flags: '--page <id>', description: 'facebook (and instagram via facebook): the page to publish to (asked when several); facebook: several, comma-separated, one account each', option: 'pageId' }],
    questions: {
      'Meta app id': '--client-id (the Meta app id)',
      'App secret': '--client-secret (the app secret)',
      'Which Facebook page?': '--page (the Facebook page id)',
      'Which Facebook pages? (each one becomes an account)': '--page (Facebook page ids, comma-separated)',
    },
    examples: ['socialpub connect facebook --sandbox --user ana@example.com'],
  },
  cli: { optionExamples: [] },
  mcp: {},
  docs: { page: 'docs/platforms/facebook.md', summary: "Posts, stories and reels on a Facebook page the user manages, through the Graph API with the page's token." },
});
