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
    thumbnail_url: z
      .url({ protocol: /^https?$/, error: 'thumbnail_url must be an http(s) URL' })
      .refine((u) => !/^https?:\/\/[^/]*@/.test(u), { error: 'URLs with a user name or password are not accepted' })
      .optional()
      .meta({
        description:
          'A custom thumbnail set after the upload (thumbnails.set): a JPEG or PNG of at most 50 MB, fetched by the daemon from a public address. Needs a verified channel. A thumbnail that fails leaves the video published and is shown in the target\'s post_steps.',
      }),
    playlist_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{2,64}$/, { error: 'playlist_id is a YouTube playlist id such as PLxxxxxxxxxxxxxxxx' })
      .optional()
      .meta({ description: 'A playlist of the channel the video is added to after the upload (playlistItems.insert). A failure leaves the video published and is shown in the target\'s post_steps.' }),
  })
  .meta({ id: 'YoutubeOptions', description: 'YouTube video options (videos.insert snippet and status).' });
export type YoutubeOptions = z.infer<typeof YoutubeOptionsSchema>;
