import { definePlatform, IMAGE_OR_VIDEO, mediaRule } from './description';

/**
 * The self-labels a Bluesky post may carry as its content warning (com.atproto.label.defs#selfLabels;
 * the values Bluesky's moderation service defines for adult and graphic content).
 */
export const BLUESKY_SELF_LABELS = ['sexual', 'nudity', 'porn', 'graphic-media'] as const;

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
  optionWords: {
    langs: { label: 'Languages (e.g. en, fr)' },
    labels: {
      label: 'Content warnings',
      help: 'Bluesky apps blur or hide the post by them.',
      choices: { sexual: 'Sexually suggestive', nudity: 'Nudity', porn: 'Adult content', 'graphic-media': 'Graphic media' },
    },
    alt_texts: { label: 'Alt texts (one per media item, in order)' },
    link_card: { label: 'Show a card for the first link' },
  },
  followUps: { thread: true, firstComment: true, commentIsPost: true, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [
      { flags: '--handle <handle>', description: 'bluesky: the account handle, e.g. alice.bsky.social or a custom domain (prompted when missing)', option: 'handle' },
      { flags: '--app-password <password>', description: 'bluesky: an app password from Settings > Privacy and security > App passwords (prompted when missing)', option: 'appPassword' },
    ],
    browserFields: [
      { field: 'handle', option: 'handle', label: 'Handle', placeholder: 'alice.bsky.social', help: 'Your Bluesky handle, or your own domain if you use one.' },
      { field: 'app_password', option: 'appPassword', label: 'App password', secret: true, placeholder: 'xxxx-xxxx-xxxx-xxxx', help: 'Made in Bluesky under Settings > Privacy and security > App passwords; not your account password.' },
    ],
    questions: { 'Bluesky handle': '--handle (the Bluesky handle, e.g. alice.bsky.social)', 'App password': '--app-password (a Bluesky app password)' },
    examples: ['socialpub connect bluesky --handle alice.bsky.social --app-password xxxx-xxxx-xxxx-xxxx'],
  },
  cli: {
    optionExamples: [],
    questions: [
      { option: 'langs', ask: 'Bluesky languages (e.g. en,fr; empty: none):', kind: 'list' },
      { option: 'labels', ask: 'Bluesky content warning?', kind: 'choice', asList: true, choices: [{ value: '', name: 'none' }, ...BLUESKY_SELF_LABELS.map((l) => ({ value: l, name: l }))] },
    ],
  },
  mcp: {},
  docs: { page: 'docs/platforms/bluesky.md', summary: "Posts with facets, link cards, images or a video and reply chains, written to the account's PDS over the AT Protocol with an app password." },
});
