import { definePlatform, IMAGE_OR_VIDEO, mediaRule } from './description';

export const mastodon = definePlatform({
  id: 'mastodon',
  name: 'Mastodon',
  info: {
    // A default Mastodon server's limits (docs/reference/platforms.md, Mastodon): each server
    // states its own in /api/v2/instance, kept with the connection and used in place of these.
    types: ['post'],
    defaultType: 'post',
    caption: { max: 500, counting: 'mastodon', urlLength: 23 },
    media: { post: mediaRule(0, 4, IMAGE_OR_VIDEO) },
    pullsMedia: false,
  },
  // Mastodon's web interface shows a single attachment at 16:9 (the focus point chooses the part kept).
  frames: { post: { ratio: '16:9', caption: true } },
  optionWords: {
    visibility: {
      label: 'Visibility',
      choices: { public: 'Public', unlisted: 'Quiet public (kept out of public timelines)', private: 'Followers only', direct: 'Only the people mentioned' },
    },
    spoiler_text: { label: 'Content warning', help: 'Shown first; the text stays folded behind it.' },
    sensitive: { label: 'Hide media behind a warning' },
    language: { label: 'Language (ISO code, e.g. en, de, pt-BR)' },
    poll: { label: 'Poll', help: 'A status with a poll takes no media.' },
    'poll.options': { label: 'Choices', help: "At least 2; the server's own limit applies (4 on most)." },
    'poll.expires_in': { label: 'Open for' },
    'poll.multiple': { label: 'Allow several choices' },
    'poll.hide_totals': { label: 'Hide the votes until the poll ends' },
    alt_text: { label: 'Alt text (describes the image for people who cannot see it)' },
    focus: { label: 'Focal point (x,y from -1.0 to 1.0)' },
  },
  followUps: { thread: true, firstComment: true, commentIsPost: true, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [{ flags: '--server <url>', description: 'mastodon: the server the account lives on, e.g. https://mastodon.social (asked when missing)', option: 'server' }],
    browserFields: [{ field: 'server', option: 'server', label: 'Server', placeholder: 'https://mastodon.social', help: 'The server your account lives on; socialpub registers itself there, so no app of yours is needed.' }],
    questions: { 'Mastodon server (e.g. https://mastodon.social)': '--server (the Mastodon server, e.g. https://mastodon.social)' },
    examples: ['socialpub connect mastodon --server https://mastodon.social'],
  },
  cli: {
    optionExamples: ['mastodon.visibility=unlisted', 'mastodon.spoiler_text="…"'],
    questions: [
      {
        option: 'visibility',
        ask: 'Who sees the Mastodon status?',
        kind: 'choice',
        choices: [
          { value: '', name: "the account's default visibility" },
          { value: 'public', name: 'public' },
          { value: 'unlisted', name: 'unlisted (public, kept out of public timelines)' },
          { value: 'private', name: 'private (followers only)' },
          { value: 'direct', name: 'direct (only the accounts mentioned)' },
        ],
      },
    ],
  },
  mcp: { connection: 'its server, whose own limits the caption and media rules are' },
  docs: { page: 'docs/platforms/mastodon.md', summary: "Statuses on any Mastodon server, checked against that server's own limits, with an Idempotency-Key on every status." },
});
