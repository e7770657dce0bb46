import { z } from 'zod';
import { ACCOUNT_LABEL_PATTERN, ACCOUNT_LABEL_RULE } from '../account-key';

/** GET /platforms/tiktok/creator-info?label=: which of the caller's TikTok accounts (several per network, issue 39). */
export const TiktokCreatorInfoQuerySchema = z.object({
  label: z
    .string()
    .regex(ACCOUNT_LABEL_PATTERN, { error: ACCOUNT_LABEL_RULE })
    .optional()
    .meta({ description: "The account's label (tiktok:brand's brand); left out: the default TikTok account." }),
});
export type TiktokCreatorInfoQuery = { label?: string | undefined };

export const TiktokCreatorInfoSchema = z
  .object({
    creator_username: z.string().nullable(),
    creator_nickname: z.string().nullable(),
    creator_avatar_url: z.string().nullable(),
    privacy_level_options: z.array(z.string()).meta({
      description: 'The privacy levels this creator may post with now: the only values platform_options.tiktok.privacy_level accepts (PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY).',
    }),
    comment_disabled: z.boolean().meta({ description: 'The creator turned comments off in the app: posts go out with comments off whatever the options say.' }),
    duet_disabled: z.boolean(),
    stitch_disabled: z.boolean(),
    max_video_post_duration_sec: z.number().int().nullable(),
  })
  .meta({ id: 'TiktokCreatorInfo', description: "A TikTok creator's current posting settings (creator_info/query)." });
export type TiktokCreatorInfo = z.infer<typeof TiktokCreatorInfoSchema>;

export const TiktokCreatorInfoResponseSchema = z
  .object({ success: z.literal(true), creator_info: TiktokCreatorInfoSchema })
  .meta({ id: 'TiktokCreatorInfoResponse' });
export type TiktokCreatorInfoResponse = z.infer<typeof TiktokCreatorInfoResponseSchema>;
