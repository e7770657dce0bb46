import type { BlueskyOptions, ErrorDetail } from '@socialpub/core';
import type { ValidationInput, ValidationMedia } from '../adapter';

/**
 * Bluesky's limits (docs/reference/platforms.md, Bluesky): the post text 300 graphemes (the
 * core table) and 3,000 UTF-8 bytes; images up to 1,000,000 bytes each (the image blob
 * limit of app.bsky.embed.images as PDSes enforce it), 4 per post; one MP4 video up to
 * 100,000,000 bytes and 3 minutes through the video service.
 */
export const BLUESKY_LIMITS = {
  textBytes: 3_000,
  imageBytes: 1_000_000,
  maxImages: 4,
  videoBytes: 100_000_000,
  videoMaxSec: 180,
  linkCardThumbBytes: 1_000_000,
} as const;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
const encoder = new TextEncoder();
const fmt = (n: number) => n.toLocaleString('en-US');

/** Bluesky rules beyond the core table: bytes of text, media formats and sizes, alt texts against the media. */
export function validateBluesky(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const text = input.caption.normalize('NFC');
  if (text.trim() === '' && input.media.length === 0) out.push({ path: 'caption', message: 'A Bluesky post needs text or media' });
  const bytes = encoder.encode(text).length;
  if (bytes > BLUESKY_LIMITS.textBytes) out.push({ path: 'caption', message: `Bluesky takes at most ${fmt(BLUESKY_LIMITS.textBytes)} UTF-8 bytes of text; this one has ${fmt(bytes)}` });
  input.media.forEach((m, i) => out.push(...checkItem(m, `media_urls.${i}`)));
  const alts = (input.options as BlueskyOptions | undefined)?.alt_texts;
  if (alts && alts.length > Math.max(input.media.length, 0)) {
    out.push({ path: 'platform_options.bluesky.alt_texts', message: `alt_texts has ${alts.length} texts for ${input.media.length} media item(s): give one per media item, in order` });
  }
  return out;
}

function checkItem(m: ValidationMedia, path: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const type = m.mimeType?.toLowerCase() ?? null;
  if (m.kind === 'image') {
    if (type && !IMAGE_TYPES.has(type)) out.push({ path, message: `Bluesky takes JPEG, PNG, WebP or GIF images, not ${type}` });
    if (m.size !== null && m.size > BLUESKY_LIMITS.imageBytes) {
      out.push({ path, message: `Bluesky takes images up to ${fmt(BLUESKY_LIMITS.imageBytes)} bytes (the uploadBlob image limit); this one is ${fmt(m.size)} bytes` });
    }
  } else if (m.kind === 'video') {
    if (type && type !== 'video/mp4') out.push({ path, message: `Bluesky takes MP4 videos, not ${type}` });
    if (m.size !== null && m.size > BLUESKY_LIMITS.videoBytes) out.push({ path, message: `Bluesky takes videos up to ${fmt(BLUESKY_LIMITS.videoBytes)} bytes; this one is ${fmt(m.size)} bytes` });
    const d = m.durationSec;
    if (d !== null && d !== undefined && d > BLUESKY_LIMITS.videoMaxSec) out.push({ path, message: `Bluesky takes videos up to 3 minutes; this one lasts ${Math.round(d)} s` });
  }
  return out;
}
