import { definePlatform, mediaRule, VIDEO } from './description';

export const youtube = definePlatform({
  id: 'youtube',
  name: 'YouTube',
  info: {
    types: ['video', 'shorts'],
    defaultType: 'video',
    caption: { max: 5000, counting: 'bytes' },
    media: { video: mediaRule(1, 1, VIDEO), shorts: mediaRule(1, 1, VIDEO) },
    pullsMedia: false,
  },
  frames: { video: { ratio: '16:9', caption: true }, shorts: { ratio: '9:16', caption: true } },
  followUps: { thread: false, firstComment: true, commentIsPost: false, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [],
    questions: { 'Google OAuth client id': '--client-id (the Google OAuth client id)' },
    examples: [],
  },
  cli: {
    optionExamples: ['youtube.title="…"', 'youtube.privacy_status=unlisted', 'youtube.tags=a,b'],
    questions: [
      { option: 'title', ask: 'YouTube title (at most 100 characters, no < or >):', kind: 'text', captionDefault: { max: 100, strip: '<>' } },
      {
        option: 'privacy_status',
        ask: 'YouTube privacy?',
        kind: 'choice',
        choices: [
          { value: '', name: "the connection's setting (else public)" },
          { value: 'public', name: 'public' },
          { value: 'unlisted', name: 'unlisted' },
          { value: 'private', name: 'private' },
        ],
      },
    ],
  },
  mcp: {},
  docs: { page: 'docs/platforms/youtube.md', summary: 'Videos and shorts uploaded resumably through the YouTube Data API, with title, privacy, thumbnail and playlist.' },
});
