import { definePlatform, IMAGE_OR_VIDEO, mediaRule, VIDEO } from './description';

export const instagram = definePlatform({
  id: 'instagram',
  name: 'Instagram',
  info: {
    types: ['feed', 'story', 'reels'],
    defaultType: 'feed',
    caption: { max: 2200, counting: 'characters', maxHashtags: 5, maxMentions: 20 },
    media: { feed: mediaRule(1, 10, IMAGE_OR_VIDEO, false), story: mediaRule(1, 10, IMAGE_OR_VIDEO, false), reels: mediaRule(1, 1, VIDEO) },
    pullsMedia: true,
  },
  // Feed images are shown at up to 4:5 portrait; stories and reels fill a 9:16 screen. A story carries no caption (the Graph API's STORIES media takes none).
  frames: { feed: { ratio: '4:5', caption: true }, story: { ratio: '9:16', caption: false }, reels: { ratio: '9:16', caption: true } },
  optionWords: {
    collaborators: { label: 'Collaborators', help: 'Up to 3 usernames invited as collaborators. Feed posts and reels.' },
    location_id: { label: 'Location (a Facebook Page id)' },
    user_tags: { label: 'Tagged people' },
    'user_tags.username': { label: 'Username' },
    'user_tags.x': { label: 'From the left (0 to 1)' },
    'user_tags.y': { label: 'From the top (0 to 1)' },
    'user_tags.media_index': { label: 'On image number (from 0)' },
    share_to_feed: { label: 'Also show the reel in the feed' },
    cover_url: { label: 'Cover image URL' },
    thumb_offset: { label: 'Cover frame (milliseconds into the video)' },
    alt_text: { label: 'Alt text (describes the image for people who cannot see it)' },
  },
  followUps: { thread: false, firstComment: true, commentIsPost: false, refusesRepeatedText: false },
  takedown: 'when connected through Facebook Login',
  connect: {
    flags: [{ flags: '--login <kind>', description: 'instagram: instagram (Instagram Login, default) or facebook (through a Facebook page)', option: 'login', choices: ['instagram', 'facebook'] }],
    questions: { 'Meta app id': '--client-id (the Meta app id)', 'App secret': '--client-secret (the app secret)' },
    examples: ['socialpub connect instagram --client-id 123456 --client-secret s3cr3t'],
  },
  cli: { optionExamples: [] },
  mcp: {},
  docs: { page: 'docs/platforms/instagram.md', summary: 'Feed posts, stories and reels of a professional account, through Instagram Login or a Facebook page; Instagram pulls the media from public URLs.' },
});
