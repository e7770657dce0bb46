import { definePlatform, mediaRule, VIDEO } from './description';

export const tiktok = definePlatform({
  id: 'tiktok',
  name: 'TikTok',
  info: {
    // photo: TikTok's photo mode, 1-35 JPEG/WebP images pulled from public URLs (docs/reference/platforms.md §12.5.3).
    types: ['video', 'photo'],
    defaultType: 'video',
    caption: { max: 2200, counting: 'utf16' },
    media: { video: mediaRule(1, 1, VIDEO), photo: mediaRule(1, 35, ['image']) },
    pullsMedia: false,
  },
  followUps: { thread: false, firstComment: false, commentIsPost: false, refusesRepeatedText: false },
  takedown: false,
  connect: {
    flags: [],
    questions: { 'TikTok client key': '--client-id (the TikTok client key)', 'TikTok client secret': '--client-secret (the TikTok client secret)' },
    examples: [],
  },
  cli: { optionExamples: ['tiktok.privacy_level=SELF_ONLY', 'tiktok.disable_duet=true'] },
  mcp: {},
  docs: { page: 'docs/platforms/tiktok.md', summary: "Videos (uploaded in chunks) and photo posts through TikTok's Content Posting API, with the creator's privacy choices." },
});
