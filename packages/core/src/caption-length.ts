import twitterText from 'twitter-text';
import { mastodonLength } from './mastodon-length';
import type { CaptionCounting } from './platforms';

/*
 * How each platform counts a caption, and what it marks in one. A subpath of its own
 * (`@socialpub/core/caption-length`), not in the index: twitter-text is large, and only the
 * daemon's rules and the dashboard's previews need it.
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const encoder = new TextEncoder();

/** A caption's length as the platform counts it (docs/reference/platforms.md §7). */
export function captionLength(text: string, counting: CaptionCounting, urlLength?: number): number {
  switch (counting) {
    case 'characters':
      return [...text].length;
    case 'utf16':
      return text.length;
    case 'bytes':
      return encoder.encode(text).length;
    case 'graphemes': {
      // Bluesky counts extended grapheme clusters (an emoji with modifiers is one).
      let n = 0;
      for (const _ of graphemes.segment(text)) n++;
      return n;
    }
    case 'x-weighted':
      // twitter-text v3 weights: most Latin 1, CJK and emoji 2, every URL 23.
      return Math.ceil(twitterText.parseTweet(text).weightedLength);
    case 'threads-utf8-emoji': {
      // Threads counts characters, except that an emoji counts its UTF-8 bytes.
      let n = 0;
      for (const { segment } of graphemes.segment(text)) n += EMOJI.test(segment) ? encoder.encode(segment).length : [...segment].length;
      return n;
    }
    case 'mastodon':
      return mastodonLength(text, urlLength === undefined ? {} : { urlLength });
  }
}

/** Hashtags, mentions and links as the platform rules count them (global: use with match/matchAll). */
export const HASHTAG = /(?:^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu;
export const MENTION = /(?:^|[^\p{L}\p{N}_])@[A-Za-z0-9_.]+/gu;
export const LINK = /\bhttps?:\/\/[^\s]+/gi;
