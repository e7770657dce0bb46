/** Counting rules for Meta captions (docs/reference/platforms.md §1.3, §4.3). */

const HASHTAG = /(?:^|[^\p{L}\p{N}_&/])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu;
const MENTION = /(?:^|[^\p{L}\p{N}_.@/])@([A-Za-z0-9_](?:[A-Za-z0-9._]{0,29}))/gu;
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

export function hashtags(text: string): string[] {
  return [...text.matchAll(HASHTAG)].map((m) => (m[1] as string).toLowerCase());
}

export function mentions(text: string): string[] {
  return [...text.matchAll(MENTION)].map((m) => (m[1] as string).toLowerCase());
}

/** Distinct links, trailing punctuation dropped (Threads counts unique links). */
export function links(text: string): string[] {
  const found = [...text.matchAll(LINK)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, '').toLowerCase());
  return [...new Set(found)];
}

/** Code points: what "characters" means for Instagram and Facebook captions. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Threads' length: "Emojis are counted as the number of UTF-8 bytes"; other characters
 * count one per code point. An emoji sequence (ZWJ family, flag, skin tone) counts all
 * of its bytes.
 */
export function threadsLength(text: string): number {
  let n = 0;
  for (const { segment } of graphemes.segment(text)) n += EMOJI.test(segment) ? Buffer.byteLength(segment, 'utf8') : codePoints(segment);
  return n;
}
