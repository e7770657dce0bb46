import type { ErrorDetail, TwitterOptions } from '@socialpub/core';
import twitterText from 'twitter-text';
import type { ValidationInput, ValidationMedia } from '../adapter';

/** X's media limits (docs/reference/platforms.md §3.2). */
export const X_LIMITS = {
  imageBytes: 5 * 1024 * 1024,
  gifBytes: 15 * 1024 * 1024,
  videoBytes: 512 * 1024 * 1024,
  videoMinSec: 0.5,
  videoMaxSec: 140,
  maxImages: 4,
} as const;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/pjpeg']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm', 'video/mp2t']);

/**
 * X's weighted length (twitter-text config v3): NFC first, most Latin/punctuation 1,
 * other code points and every emoji sequence 2, every URL 23.
 */
export function tweetWeightedLength(text: string): number {
  return twitterText.parseTweet(text.normalize('NFC')).weightedLength;
}

/** A GIF goes through X's `tweet_gif` category (animated, alone in its post). */
export function isGif(m: { mimeType: string | null; url: string }): boolean {
  if (m.mimeType) return m.mimeType.toLowerCase() === 'image/gif';
  try {
    return new URL(m.url).pathname.toLowerCase().endsWith('.gif');
  } catch {
    return false;
  }
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * X rules beyond the core table (which already counts the weighted 280 with twitter-text
 * and limits media to 4 with a video alone): a GIF alone, formats, sizes, video
 * duration, one cashtag, and some text or media.
 */
export function validateTwitter(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const text = input.caption.normalize('NFC');
  if (text.trim() === '' && input.media.length === 0) out.push({ path: 'caption', message: 'An X post needs text or media' });
  if (twitterText.extractCashtags(text).length > 1) out.push({ path: 'caption', message: 'X allows at most one cashtag ($TICKER) per post' });

  const gifs = input.media.filter((m) => m.kind === 'image' && isGif(m));
  if (gifs.length > 0 && input.media.length > 1) out.push({ path: 'media_urls', message: 'An X post takes an animated GIF alone, without other media' });
  input.media.forEach((m, i) => out.push(...checkItem(m, `media_urls.${i}`)));
  // A poll stands alone: X refuses it with media (older v2 docs; docs/reference/platforms.md §12.3.1, §12.8).
  if ((input.options as TwitterOptions | undefined)?.poll && input.media.length > 0) {
    out.push({ path: 'platform_options.twitter.poll', message: 'an X post with a poll takes no media (leave media_urls empty or drop the poll)' });
  }
  return out;
}

function checkItem(m: ValidationMedia, path: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const type = m.mimeType?.toLowerCase() ?? null;
  if (m.kind === 'image') {
    const gif = isGif(m);
    if (type && !IMAGE_TYPES.has(type)) out.push({ path, message: `X takes JPEG, PNG, GIF or WEBP images, not ${type}` });
    const max = gif ? X_LIMITS.gifBytes : X_LIMITS.imageBytes;
    if (m.size !== null && m.size > max) out.push({ path, message: `X takes ${gif ? 'GIFs' : 'images'} up to ${mb(max)}; this one is ${mb(m.size)}` });
  } else if (m.kind === 'video') {
    if (type && !VIDEO_TYPES.has(type)) out.push({ path, message: `X takes MP4 or MOV videos, not ${type}` });
    if (m.size !== null && m.size > X_LIMITS.videoBytes) out.push({ path, message: `X takes videos up to 512 MB; this one is ${mb(m.size)}` });
    const d = m.durationSec;
    if (d !== null && d !== undefined && (d < X_LIMITS.videoMinSec || d > X_LIMITS.videoMaxSec)) {
      out.push({ path, message: `X takes videos of 0.5 to 140 seconds; this one lasts ${Math.round(d * 10) / 10} s` });
    }
    if (m.width && m.height && (m.width < 32 || m.height < 32)) out.push({ path, message: 'X takes videos of at least 32×32 pixels' });
  }
  return out;
}
