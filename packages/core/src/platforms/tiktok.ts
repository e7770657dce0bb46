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
  // TikTok is a 9:16 screen, photo posts included.
  frames: { video: { ratio: '9:16', caption: true }, photo: { ratio: '9:16', caption: true } },
  optionWords: {
    privacy_level: {
      label: 'Who can watch',
      help: "TikTok offers only the audiences the creator's account allows now.",
      choices: { PUBLIC_TO_EVERYONE: 'Everyone', MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)', FOLLOWER_OF_CREATOR: 'Followers', SELF_ONLY: 'Only me' },
    },
    disable_comment: { label: 'Turn off comments' },
    disable_duet: { label: 'Turn off Duets', help: 'Videos only. TikTok turns Duets off anyway for private accounts.' },
    disable_stitch: { label: 'Turn off Stitches', help: 'Videos only. TikTok turns Stitches off anyway for private accounts.' },
    brand_content_toggle: { label: 'Paid partnership', help: 'Branded content for a third party; it cannot be private.' },
    brand_organic_toggle: { label: 'Promotes your own business' },
    is_aigc: { label: 'AI-generated content', help: 'TikTok shows "Creator labeled as AI-generated" on the post.' },
    video_cover_timestamp_ms: { label: 'Cover frame (milliseconds into the video)', help: 'Videos only. Unset: the first frame.' },
    photo_cover_index: { label: 'Cover photo (its number, counting from 0)', help: 'Photo posts only. Default: the first photo.' },
    auto_add_music: { label: 'Let TikTok add music', help: 'Photo posts only.' },
  },
  followUps: { thread: false, firstComment: false, commentIsPost: false, refusesRepeatedText: false },
  takedown: false,
  connect: {
    flags: [],
    questions: { 'TikTok client key': '--client-id (the TikTok client key)', 'TikTok client secret': '--client-secret (the TikTok client secret)' },
    examples: [],
  },
  cli: {
    optionExamples: ['tiktok.privacy_level=SELF_ONLY', 'tiktok.disable_duet=true'],
    questions: [
      {
        option: 'privacy_level',
        ask: 'Who can see the TikTok video?',
        kind: 'choice',
        choices: [
          { value: 'PUBLIC_TO_EVERYONE', name: 'everyone (PUBLIC_TO_EVERYONE)' },
          { value: 'MUTUAL_FOLLOW_FRIENDS', name: 'friends (MUTUAL_FOLLOW_FRIENDS)' },
          { value: 'FOLLOWER_OF_CREATOR', name: 'followers (FOLLOWER_OF_CREATOR)' },
          { value: 'SELF_ONLY', name: 'only me (SELF_ONLY)' },
        ],
        // The creator's current options (GET /platforms/tiktok/creator-info); not connected or not answering: the connection's setting applies.
        choicesFromAccount: { method: 'tiktokCreatorInfo', field: 'creator_info.privacy_level_options', what: "TikTok's creator info" },
      },
    ],
  },
  mcp: {},
  docs: { page: 'docs/platforms/tiktok.md', summary: "Videos (uploaded in chunks) and photo posts through TikTok's Content Posting API, with the creator's privacy choices." },
});
