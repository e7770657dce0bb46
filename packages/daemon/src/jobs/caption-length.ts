import { mastodonLength, type CaptionCounting } from '@socialpub/core';
import twitterText from 'twitter-text';

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
      return Buffer.byteLength(text, 'utf8');
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
