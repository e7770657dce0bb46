import { definePlatform, IMAGE_OR_VIDEO, mediaRule } from './description';

export const bluesky = definePlatform({
  id: 'bluesky',
  name: 'Bluesky',
  info: {
    // app.bsky.feed.post: 300 graphemes (and 3,000 UTF-8 bytes); 4 images or one video (docs/reference/platforms.md, Bluesky).
    types: ['post'],
    defaultType: 'post',
    caption: { max: 300, counting: 'graphemes' },
    media: { post: mediaRule(0, 4, IMAGE_OR_VIDEO) },
    pullsMedia: false,
  },
  followUps: { thread: true, firstComment: true, commentIsPost: true, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [
      { flags: '--handle <handle>', description: 'bluesky: the account handle, e.g. alice.bsky.social or a custom domain (prompted when missing)', option: 'handle' },
      { flags: '--app-password <password>', description: 'bluesky: an app password from Settings > Privacy and security > App passwords (prompted when missing)', option: 'appPassword' },
    ],
    questions: { 'Bluesky handle': '--handle (the Bluesky handle, e.g. alice.bsky.social)', 'App password': '--app-password (a Bluesky app password)' },
    examples: ['socialpub connect bluesky --handle alice.bsky.social --app-password xxxx-xxxx-xxxx-xxxx'],
  },
  cli: { optionExamples: [] },
  mcp: {},
  docs: { page: 'docs/platforms/bluesky.md', summary: "Posts with facets, link cards, images or a video and reply chains, written to the account's PDS over the AT Protocol with an app password." },
});
