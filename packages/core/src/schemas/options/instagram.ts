import { z } from 'zod';
import { graphId, httpUrl } from './meta-fields';

/** Instagram usernames: letters, digits, periods and underscores, at most 30 (no leading @). */
const username = z
  .string()
  .regex(/^[A-Za-z0-9._]{1,30}$/, { error: 'an Instagram username: letters, digits, . and _, at most 30 characters, without @' });

/** 0.0–1.0 from the top-left of the image (docs/reference/platforms.md §12.1.1). */
const coordinate = (axis: 'x' | 'y') =>
  z
    .number()
    .min(0, { error: `${axis} is between 0.0 and 1.0 (from the top-left of the image)` })
    .max(1, { error: `${axis} is between 0.0 and 1.0 (from the top-left of the image)` });

export const InstagramUserTagSchema = z
  .strictObject({
    username: username.meta({ description: 'The tagged account (public accounts only).' }),
    x: coordinate('x').optional().meta({ description: 'Horizontal position, 0.0 (left) to 1.0 (right). Required on images (not stories); not for videos, where Instagram ignores positions.' }),
    y: coordinate('y').optional().meta({ description: 'Vertical position, 0.0 (top) to 1.0 (bottom). Required on images (not stories); not for videos.' }),
    media_index: z
      .number()
      .int({ error: 'media_index is a whole number' })
      .min(0, { error: 'media_index must not be negative' })
      .optional()
      .meta({ description: 'Which item of media_urls the tag is on (0-based; default 0): a carousel image (its child container) or a story.' }),
  })
  .meta({ description: 'One tagged account.' });
export type InstagramUserTag = z.infer<typeof InstagramUserTagSchema>;

const altText = z.string().min(1, { error: 'alt_text must not be empty' }).max(1000, { error: 'alt_text is at most 1000 characters' });

export const InstagramOptionsSchema = z
  .strictObject({
    collaborators: z
      .array(username)
      .max(3, { error: 'Instagram takes at most 3 collaborators' })
      .refine((a) => new Set(a.map((u) => u.toLowerCase())).size === a.length, { error: 'collaborators must not repeat an account' })
      .optional()
      .meta({ description: 'collaborators: up to 3 usernames invited as collaborators. Feed posts (image, video, carousel) and reels; not stories.' }),
    location_id: graphId('location_id')
      .optional()
      .meta({ description: 'location_id: the id of a Facebook Page with location data. Feed posts (on a carousel: the carousel itself) and reels; not stories.' }),
    user_tags: z
      .array(InstagramUserTagSchema)
      .min(1, { error: 'user_tags must not be empty' })
      .optional()
      .meta({ description: 'user_tags: accounts tagged on an image ({username, x, y}, x/y from 0.0 to 1.0 from the top-left; on a carousel per image via media_index), a reel (username only) or a story (x/y optional).' }),
    share_to_feed: z.boolean().optional().meta({ description: 'share_to_feed: whether a reel also appears in the feed. Reels (type reels) only. Default true.' }),
    cover_url: httpUrl('cover_url')
      .optional()
      .meta({ description: 'cover_url: a public JPEG (at most 8 MB) used as the cover of a reel or a feed video. Not with thumb_offset.' }),
    thumb_offset: z
      .number()
      .int({ error: 'thumb_offset is a whole number of milliseconds' })
      .min(0, { error: 'thumb_offset must not be negative' })
      .optional()
      .meta({ description: 'thumb_offset: the frame (milliseconds into the video) used as the cover of a reel or a feed video. Default 0 (the first frame). Not with cover_url.' }),
    alt_text: z
      .union([altText, z.array(altText.nullable())])
      .optional()
      .meta({
        description:
          'alt_text: the image description (at most 1000 characters). Images only: a string for a single image; for a carousel a list with one entry per media item (null for videos and images left without). Not for videos, reels or stories.',
      }),
  })
  .check((ctx) => {
    const v = ctx.value;
    if (v.cover_url !== undefined && v.thumb_offset !== undefined) {
      ctx.issues.push({ code: 'custom', input: v, path: ['thumb_offset'], message: 'give cover_url or thumb_offset, not both (Instagram ignores thumb_offset when cover_url is set)' });
    }
    v.user_tags?.forEach((t, i) => {
      if ((t.x === undefined) !== (t.y === undefined)) ctx.issues.push({ code: 'custom', input: t, path: ['user_tags', i, t.x === undefined ? 'x' : 'y'], message: 'x and y come together' });
    });
  })
  .meta({ id: 'InstagramOptions', description: 'Instagram options (parameters of the media containers, POST /{ig-user-id}/media).' });
export type InstagramOptions = z.infer<typeof InstagramOptionsSchema>;
