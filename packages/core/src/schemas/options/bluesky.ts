import { z } from 'zod';
import { BLUESKY_SELF_LABELS } from '../../platforms/bluesky';

export { BLUESKY_SELF_LABELS };
export type BlueskySelfLabel = (typeof BLUESKY_SELF_LABELS)[number];

/** app.bsky.feed.post `langs`: at most 3 language tags. Alt text: the Bluesky app's 2,000-grapheme limit. */
export const BLUESKY_OPTION_LIMITS = { maxLangs: 3, maxAltTexts: 4, altTextMaxGraphemes: 2_000 } as const;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].length;
/** A BCP-47 language tag in its common form (`en`, `pt-BR`, `zh-Hant`). */
const LANG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/;

export const BlueskyOptionsSchema = z
  .strictObject({
    langs: z
      .array(z.string().regex(LANG, { error: 'a language is a BCP-47 tag such as en, pt-BR or ja' }))
      .min(1, { error: 'langs lists at least one language' })
      .max(BLUESKY_OPTION_LIMITS.maxLangs, { error: `langs lists at most ${BLUESKY_OPTION_LIMITS.maxLangs} languages` })
      .optional()
      .meta({ description: "langs: the post's languages (BCP-47 tags, at most 3), used by Bluesky's feeds and translation. Default: none given." }),
    labels: z
      .array(z.enum(BLUESKY_SELF_LABELS))
      .min(1, { error: 'labels lists at least one label' })
      .max(BLUESKY_SELF_LABELS.length)
      .refine((l) => new Set(l).size === l.length, { error: 'labels lists each label once' })
      .optional()
      .meta({ description: 'labels: self-labels as a content warning (sexual, nudity, porn, graphic-media); Bluesky apps blur or hide the post by them. Default: none.' }),
    alt_texts: z
      .array(
        z
          .string()
          .refine((s) => graphemes(s) <= BLUESKY_OPTION_LIMITS.altTextMaxGraphemes, { error: `an alt text is at most ${BLUESKY_OPTION_LIMITS.altTextMaxGraphemes} graphemes` }),
      )
      .max(BLUESKY_OPTION_LIMITS.maxAltTexts, { error: `alt_texts lists at most ${BLUESKY_OPTION_LIMITS.maxAltTexts} texts (one per media item)` })
      .optional()
      .meta({ description: 'alt_texts: the alt text of each media item, in the order of media_urls (a video takes the first). Default: empty alt text.' }),
    link_card: z
      .boolean()
      .optional()
      .meta({ description: 'link_card: attach a card (title, description, thumbnail) for the first link when the post has no media. Default: true.' }),
  })
  .meta({ id: 'BlueskyOptions', description: 'Bluesky post options (fields of the app.bsky.feed.post record).' });
export type BlueskyOptions = z.infer<typeof BlueskyOptionsSchema>;
