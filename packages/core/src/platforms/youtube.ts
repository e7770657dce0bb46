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
  optionWords: {
    title: { label: 'Title', help: "At most 100 characters. Default: the caption's first line." },
    description: { label: 'Description', help: 'At most 5,000 bytes. Default: the caption.' },
    privacy_status: { label: 'Visibility', choices: { public: 'Public', unlisted: 'Unlisted (anyone with the link)', private: 'Private' } },
    tags: { label: 'Tags', help: "At most 500 characters in all. Default: the caption's #hashtags." },
    category_id: { label: 'Category (its number)', help: 'For example 22 People & Blogs, 27 Education. Default: 22.' },
    made_for_kids: { label: 'Made for kids' },
    notify_subscribers: { label: 'Notify subscribers' },
    thumbnail_url: { label: 'Thumbnail image URL' },
    playlist_id: { label: 'Add to playlist (its id)' },
  },
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
