import { z } from 'zod';

export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export type TiktokPrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];

export const TiktokOptionsSchema = z
  .strictObject({
    privacy_level: z
      .enum(TIKTOK_PRIVACY_LEVELS)
      .optional()
      .meta({
        description:
          "post_info.privacy_level: must be one of the creator's privacy_level_options (creator info), checked right before posting (otherwise the target fails with privacy_level_option_mismatch; it is never changed silently). Default: the connection's setting, else PUBLIC_TO_EVERYONE for audited apps and SELF_ONLY otherwise.",
      }),
    disable_comment: z.boolean().optional().meta({ description: 'post_info.disable_comment. TikTok disables comments anyway when the creator set comments to "No one". Default false.' }),
    disable_duet: z.boolean().optional().meta({ description: 'post_info.disable_duet. TikTok disables Duets anyway for private accounts. Default false.' }),
    disable_stitch: z.boolean().optional().meta({ description: 'post_info.disable_stitch. TikTok disables Stitches anyway for private accounts. Default false.' }),
    brand_content_toggle: z.boolean().optional().meta({ description: 'post_info.brand_content_toggle: a paid partnership for a third party. Branded content cannot be private (SELF_ONLY). Default false.' }),
    brand_organic_toggle: z.boolean().optional().meta({ description: "post_info.brand_organic_toggle: promotes the creator's own business. Default false." }),
    is_aigc: z.boolean().optional().meta({ description: 'post_info.is_aigc: labels the post "Creator labeled as AI-generated". Default: the connection\'s setting, else false.' }),
    video_cover_timestamp_ms: z
      .number()
      .int({ error: 'video_cover_timestamp_ms is a whole number of milliseconds' })
      .min(0, { error: 'video_cover_timestamp_ms must not be negative' })
      .max(2_147_483_647, { error: 'video_cover_timestamp_ms is an int32' })
      .optional()
      .meta({ description: 'post_info.video_cover_timestamp_ms: the frame used as the cover. Unset (or past the end): the first frame.' }),
    photo_cover_index: z
      .number()
      .int({ error: 'photo_cover_index is a whole number' })
      .min(0, { error: 'photo_cover_index counts from 0' })
      .optional()
      .meta({ description: 'Photo posts: source_info.photo_cover_index, the 0-based index of the image used as the cover; it must be one of the post\'s images. Default 0.' }),
    auto_add_music: z.boolean().optional().meta({ description: 'Photo posts: post_info.auto_add_music, lets TikTok add music to the photos. Default false.' }),
  })
  .check((ctx) => {
    if (ctx.value.brand_content_toggle === true && ctx.value.privacy_level === 'SELF_ONLY') {
      ctx.issues.push({ code: 'custom', input: ctx.value, path: ['privacy_level'], message: 'branded content (brand_content_toggle) cannot be private (SELF_ONLY)' });
    }
  })
  .meta({ id: 'TiktokOptions', description: 'TikTok options (post_info of the direct post; photo posts also source_info.photo_cover_index). disable_duet, disable_stitch and video_cover_timestamp_ms apply to videos only.' });
export type TiktokOptions = z.infer<typeof TiktokOptionsSchema>;
