import { z } from 'zod';

/** YouTube refuses `<` and `>` in titles and descriptions (invalidTitle / invalidDescription). */
const noAngles = (s: string) => !/[<>]/.test(s);
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** YouTube's tag budget: Σ(length, +2 for a tag with a space, as if quoted) + commas ≤ 500 (docs/reference/platforms.md §12.6.1). */
export function youtubeTagsLength(tags: readonly string[]): number {
  return tags.reduce((n, t) => n + [...t].length + (/\s/.test(t) ? 2 : 0), 0) + Math.max(0, tags.length - 1);
}

export const YoutubeOptionsSchema = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1, { error: 'title must not be empty' })
      .refine((s) => [...s].length <= 100, { error: 'title is at most 100 characters' })
      .refine(noAngles, { error: 'title must not contain < or >' })
      .optional()
      .meta({ description: 'snippet.title: at most 100 characters, no < or >. Default: the caption\'s first line (cut to 100 characters).' }),
    description: z
      .string()
      .refine((s) => utf8Bytes(s) <= 5000, { error: 'description is at most 5000 bytes (UTF-8)' })
      .refine(noAngles, { error: 'description must not contain < or >' })
      .optional()
      .meta({ description: 'snippet.description: at most 5000 UTF-8 bytes, no < or >. Default: the caption.' }),
    privacy_status: z
      .enum(['public', 'unlisted', 'private'])
      .optional()
      .meta({ description: 'status.privacyStatus. Default: the connection\'s privacy setting, else the daemon\'s, else public. Uploads from unverified Google projects are made private by YouTube.' }),
    tags: z
      .array(z.string().trim().min(1, { error: 'a tag must not be empty' }).refine((s) => !/[<>,]/.test(s), { error: 'a tag must not contain <, > or ,' }))
      .refine((tags) => youtubeTagsLength(tags) <= 500, { error: 'tags total at most 500 characters (commas count; a tag with a space counts 2 more)' })
      .optional()
      .meta({ description: 'snippet.tags: at most 500 characters in all (commas between tags count, a tag containing a space counts as if quoted). Default: the caption\'s #hashtags.' }),
    category_id: z
      .string()
      .regex(/^\d{1,4}$/, { error: 'category_id is a numeric YouTube category id such as "22"' })
      .optional()
      .meta({ description: 'snippet.categoryId, an id from videoCategories.list (e.g. "22" People & Blogs, "27" Education). Default: the connection\'s, else "22".' }),
    made_for_kids: z.boolean().optional().meta({ description: 'status.selfDeclaredMadeForKids. Default: the connection\'s setting, else false.' }),
    notify_subscribers: z.boolean().optional().meta({ description: 'The notifySubscribers query parameter of videos.insert. Default: the connection\'s setting, else true.' }),
  })
  .meta({ id: 'YoutubeOptions', description: 'YouTube video options (videos.insert snippet and status).' });
export type YoutubeOptions = z.infer<typeof YoutubeOptionsSchema>;

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
  })
  .check((ctx) => {
    if (ctx.value.brand_content_toggle === true && ctx.value.privacy_level === 'SELF_ONLY') {
      ctx.issues.push({ code: 'custom', input: ctx.value, path: ['privacy_level'], message: 'branded content (brand_content_toggle) cannot be private (SELF_ONLY)' });
    }
  })
  .meta({ id: 'TiktokOptions', description: 'TikTok video options (post_info of the direct post).' });
export type TiktokOptions = z.infer<typeof TiktokOptionsSchema>;

/** The options schema of each platform that has options so far. */
export const PLATFORM_OPTION_SCHEMAS = {
  youtube: YoutubeOptionsSchema,
  tiktok: TiktokOptionsSchema,
} as const;

export const PlatformOptionsSchema = z
  .strictObject({
    youtube: YoutubeOptionsSchema.optional(),
    tiktok: TiktokOptionsSchema.optional(),
  })
  .meta({ id: 'PlatformOptions', description: 'Per-platform options, keyed by platform; each platform must be among platforms.' });
export type PlatformOptions = z.infer<typeof PlatformOptionsSchema>;

/**
 * The JSON Schema (draft 2020-12, input side) of a platform's options, generated from its
 * zod schema, for GET /platforms; null for a platform without options yet.
 */
export function platformOptionsJsonSchema(platform: string): Record<string, unknown> | null {
  const schema = (PLATFORM_OPTION_SCHEMAS as Record<string, z.ZodType | undefined>)[platform];
  if (!schema) return null;
  const out = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown> & { $ref?: string; $defs?: Record<string, Record<string, unknown>> };
  // The schema carries an OpenAPI id, so zod answers with a $ref to it: inline the one definition.
  const id = out.$ref?.replace('#/$defs/', '');
  const def = id ? out.$defs?.[id] : undefined;
  return def ? { $schema: out.$schema, title: id, ...def } : out;
}
