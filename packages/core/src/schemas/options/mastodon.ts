import { z } from 'zod';

/** Mastodon's status visibilities (POST /api/v1/statuses `visibility`). */
export const MASTODON_VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
export type MastodonVisibility = (typeof MASTODON_VISIBILITIES)[number];

/**
 * Bounds every Mastodon server shares; each server's own (poll options, poll lengths, alt
 * text length) are checked against the limits kept with the connection.
 */
export const MASTODON_POLL = { minOptions: 2, maxOptions: 20, minSeconds: 300, maxSeconds: 2_629_746 } as const;
export const MASTODON_DESCRIPTION_MAX = 1500;

const altText = z
  .string()
  .min(1, { error: 'alt_text must not be empty' })
  .max(MASTODON_DESCRIPTION_MAX, { error: `alt_text is at most ${MASTODON_DESCRIPTION_MAX} characters` });

/** A focal point `x,y`, each from -1.0 to 1.0 (Mastodon's `focus`). */
const focus = z
  .string()
  .regex(/^\s*-?(?:0|1)(?:\.\d+)?\s*,\s*-?(?:0|1)(?:\.\d+)?\s*$/, { error: 'focus is "x,y", two numbers from -1.0 to 1.0 (e.g. "0.0,0.5")' })
  .refine((s) => s.split(',').every((n) => Math.abs(Number(n)) <= 1), { error: 'focus numbers lie between -1.0 and 1.0' });

export const MastodonPollSchema = z
  .strictObject({
    options: z
      .array(z.string().trim().min(1, { error: 'a poll option must not be empty' }))
      .min(MASTODON_POLL.minOptions, { error: 'a poll has at least 2 options' })
      .max(MASTODON_POLL.maxOptions, { error: `a poll has at most ${MASTODON_POLL.maxOptions} options (the server's own limit applies, 4 on most)` })
      .meta({ description: "poll.options: the choices, at least 2; the server's limits say how many (4 on mastodon.social) and how long each may be (50)." }),
    expires_in: z
      .number()
      .int({ error: 'expires_in is a whole number of seconds' })
      .min(MASTODON_POLL.minSeconds, { error: 'a poll runs at least 300 seconds (5 minutes)' })
      .max(MASTODON_POLL.maxSeconds, { error: 'a poll runs at most 2629746 seconds (about a month)' })
      .meta({ description: "poll.expires_in: how long the poll runs, in seconds (the server's limits; 300 to 2629746 on Mastodon itself)." }),
    multiple: z.boolean().optional().meta({ description: 'poll.multiple: several choices allowed. Default false.' }),
    hide_totals: z.boolean().optional().meta({ description: 'poll.hide_totals: votes hidden until the poll ends. Default false.' }),
  })
  .meta({ description: 'A Mastodon poll. A status with a poll takes no media.' });

export const MastodonOptionsSchema = z
  .strictObject({
    visibility: z
      .enum(MASTODON_VISIBILITIES)
      .optional()
      .meta({
        description:
          "visibility: public, unlisted (public but kept out of public timelines), private (followers only) or direct (only the accounts mentioned). Default: the account's own default visibility.",
      }),
    spoiler_text: z
      .string()
      .min(1, { error: 'spoiler_text must not be empty' })
      .optional()
      .meta({ description: "spoiler_text: a content warning shown before the text, which stays collapsed behind it; counts toward the server's character limit with the text." }),
    sensitive: z.boolean().optional().meta({ description: 'sensitive: hide the media behind a warning. Default false (a content warning marks it sensitive anyway).' }),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/, { error: 'language is an ISO 639 code such as en, de or pt-BR' })
      .optional()
      .meta({ description: "language: the status's ISO 639 language code (en, de, pt-BR). Default: the server guesses." }),
    poll: MastodonPollSchema.optional(),
    alt_text: z
      .union([altText, z.array(altText.nullable())])
      .optional()
      .meta({
        description:
          "alt_text: the media's description for people who cannot see it (at most 1500 characters, or the server's description limit). A string for a single item; a list with one entry per media item (null for none).",
      }),
    focus: z
      .union([focus, z.array(focus.nullable())])
      .optional()
      .meta({ description: 'focus: the focal point "x,y" (-1.0 to 1.0 each, 0,0 the centre) that thumbnails keep in view. A string for a single item; a list with one entry per media item (null for none).' }),
  })
  .check((ctx) => {
    const v = ctx.value;
    if (v.poll && v.alt_text !== undefined) ctx.issues.push({ code: 'custom', input: v, path: ['alt_text'], message: 'a status with a poll takes no media, so no alt_text' });
    if (v.poll && v.focus !== undefined) ctx.issues.push({ code: 'custom', input: v, path: ['focus'], message: 'a status with a poll takes no media, so no focus' });
    if (v.poll && new Set(v.poll.options).size !== v.poll.options.length) ctx.issues.push({ code: 'custom', input: v, path: ['poll', 'options'], message: 'poll options must differ from each other' });
  })
  .meta({ id: 'MastodonOptions', description: 'Mastodon status options (POST /api/v1/statuses and the media descriptions of POST /api/v2/media).' });
export type MastodonOptions = z.infer<typeof MastodonOptionsSchema>;
