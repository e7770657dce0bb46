import { z } from 'zod';

/** Pinterest's limits on a pin's fields (POST /v5/pins, PinCreate; docs/reference/platforms.md §16). */
export const PINTEREST_LIMITS = { title: 100, description: 500, link: 2048, altText: 500 } as const;

/** A board id: digits, as Pinterest's description of v5 writes it (`^\d+$`). */
export const PINTEREST_BOARD_ID = /^[0-9]{1,30}$/;

const chars = (s: string) => [...s].length;

export const PinterestOptionsSchema = z
  .strictObject({
    board_id: z
      .string()
      .trim()
      .regex(PINTEREST_BOARD_ID, { error: 'board_id is a Pinterest board id (digits); `socialpub connect pinterest` and GET /platforms list the boards' })
      .optional()
      .meta({ description: "board_id: the board the pin goes to; it must be one of the connected account's boards. Default: the board chosen at connect time (--board), else the account's first board." }),
    title: z
      .string()
      .trim()
      .min(1, { error: 'title must not be empty' })
      .refine((s) => chars(s) <= PINTEREST_LIMITS.title, { error: `title is at most ${PINTEREST_LIMITS.title} characters` })
      .optional()
      .meta({ description: `title: the pin's title, at most ${PINTEREST_LIMITS.title} characters. Default: none (the caption is the pin's description).` }),
    link: z
      .url({ protocol: /^https?$/, error: 'link is an http(s) URL' })
      .refine((s) => s.length <= PINTEREST_LIMITS.link, { error: `link is at most ${PINTEREST_LIMITS.link} characters` })
      .optional()
      .meta({ description: `link: where the pin leads (an http(s) URL, at most ${PINTEREST_LIMITS.link} characters).` }),
    alt_text: z
      .string()
      .trim()
      .min(1, { error: 'alt_text must not be empty' })
      .refine((s) => chars(s) <= PINTEREST_LIMITS.altText, { error: `alt_text is at most ${PINTEREST_LIMITS.altText} characters` })
      .optional()
      .meta({ description: `alt_text: the image's description for screen readers, at most ${PINTEREST_LIMITS.altText} characters.` }),
    cover_image_url: z
      .url({ protocol: /^https?$/, error: 'cover_image_url is an http(s) URL' })
      .optional()
      .meta({ description: 'cover_image_url: a video pin\'s cover image, a public URL Pinterest fetches (type video_pin; it or cover_key_frame_sec is required there).' }),
    cover_key_frame_sec: z
      .number()
      .int({ error: 'cover_key_frame_sec is a whole number of seconds' })
      .min(0, { error: 'cover_key_frame_sec is 0 or more' })
      .optional()
      .meta({ description: 'cover_key_frame_sec: the second of the video whose frame becomes the cover (type video_pin; past the end, the last frame).' }),
  })
  .meta({ id: 'PinterestOptions', description: 'Pinterest pin options (POST /v5/pins).' });
export type PinterestOptions = z.infer<typeof PinterestOptionsSchema>;
