import type { ErrorDetail, TiktokOptions } from '@socialpub/core';
import type { ValidationInput } from '../adapter';

export const TIKTOK_LIMITS = {
  maxBytes: 4 * 1024 * 1024 * 1024,
  /** The API's ceiling; each creator's own limit (often 3 minutes) comes from creator_info at publish time. */
  maxDurationSec: 600,
  minSide: 360,
  maxSide: 4096,
} as const;

const TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);

/** Photo posts: JPEG or WebP, at most 20 MB each, pulled by TikTok from public URLs (docs/reference/platforms.md §5.2, §12.5.3). */
export const TIKTOK_PHOTO_LIMITS = { maxBytes: 20 * 1024 * 1024, types: ['image/jpeg', 'image/webp'] } as const;

const VIDEO_ONLY = ['disable_duet', 'disable_stitch', 'video_cover_timestamp_ms'] as const;
const PHOTO_ONLY = ['photo_cover_index', 'auto_add_music'] as const;

function validatePhoto(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const options = (input.options ?? {}) as TiktokOptions;
  input.media.forEach((m, i) => {
    const path = `media_urls.${i}`;
    const type = m.mimeType?.toLowerCase();
    if (m.kind === 'image' && type && !(TIKTOK_PHOTO_LIMITS.types as readonly string[]).includes(type)) out.push({ path, message: `TikTok photo posts take JPEG or WebP images, not ${type}` });
    if (m.kind === 'image' && m.size !== null && m.size > TIKTOK_PHOTO_LIMITS.maxBytes) out.push({ path, message: 'TikTok photo posts take images up to 20 MB' });
    // TikTok pulls photos itself (PULL_FROM_URL is the only source): a prepared file needs the daemon's public URL.
    if (m.prepared && !input.publicBaseUrl) {
      out.push({ path, message: 'TikTok downloads photos from a public URL, and this daemon has no public base URL, so it cannot fetch this prepared file. Start the daemon with --public-url https://<host> (or set SOCIALPUB_PUBLIC_URL), or pass a publicly reachable image URL (on a domain verified for your TikTok app).' });
    }
  });
  if (options.photo_cover_index !== undefined && input.media.length > 0 && options.photo_cover_index >= input.media.length) {
    out.push({ path: 'platform_options.tiktok.photo_cover_index', message: `photo_cover_index must name one of the ${input.media.length} images (0 to ${input.media.length - 1})` });
  }
  for (const name of VIDEO_ONLY) {
    if (options[name] !== undefined) out.push({ path: `platform_options.tiktok.${name}`, message: `${name} applies to TikTok videos, not photo posts` });
  }
  return out;
}

/** TikTok rules beyond the core table (video: exactly one video and 2,200 UTF-16 units; photo: 1-35 images). */
export function validateTiktok(input: ValidationInput): ErrorDetail[] {
  if (input.type === 'photo') return validatePhoto(input);
  const out: ErrorDetail[] = [];
  const options = (input.options ?? {}) as TiktokOptions;
  for (const name of PHOTO_ONLY) {
    if (options[name] !== undefined) out.push({ path: `platform_options.tiktok.${name}`, message: `${name} applies to TikTok photo posts, not videos` });
  }
  // Exactly one video is the core table's rule (reported there); the checks below are about that video.
  const m = input.media[0];
  if (input.media.length !== 1 || !m || m.kind === 'image') return out;
  const path = 'media_urls.0';
  const type = m.mimeType?.toLowerCase();
  if (type && !TYPES.has(type)) out.push({ path, message: `TikTok takes MP4, WebM or MOV videos, not ${type}` });
  if (m.size !== null && m.size > TIKTOK_LIMITS.maxBytes) out.push({ path, message: 'TikTok takes videos up to 4 GB' });
  if (m.durationSec && m.durationSec > TIKTOK_LIMITS.maxDurationSec) out.push({ path, message: `TikTok takes videos up to 10 minutes (many creators 3); this one lasts ${Math.round(m.durationSec)} s` });
  if (m.width && m.height && (Math.min(m.width, m.height) < TIKTOK_LIMITS.minSide || Math.max(m.width, m.height) > TIKTOK_LIMITS.maxSide)) {
    out.push({ path, message: `TikTok takes videos from 360 to 4096 pixels on each side; this one is ${m.width}×${m.height}` });
  }
  return out;
}
