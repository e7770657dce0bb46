import type { ErrorDetail, PinterestOptions } from '@socialpub/core';
import type { ValidationInput, ValidationMedia } from '../adapter';

/** Pinterest's media limits (docs/reference/platforms.md §16). */
export const PINTEREST_MEDIA_LIMITS = {
  imageMaxBytes: 20 * 1024 * 1024,
  videoMaxBytes: 2 * 1024 * 1024 * 1024,
  videoMinSec: 4,
  videoMaxSec: 15 * 60,
} as const;

/** The image types a pin takes as bytes (PinMediaSourceImageBase64's ContentType: JPEG and PNG). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
const OPT = 'platform_options.pinterest';

/**
 * Pinterest rules beyond the core table (a 500-character description, 1-5 images for a
 * pin, one video for a video pin): formats and sizes, and a video pin's cover.
 */
export function validatePinterest(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const o = (input.options ?? {}) as PinterestOptions;
  const cover = o.cover_image_url !== undefined || o.cover_key_frame_sec !== undefined;
  if (input.type === 'video_pin') {
    if (!cover) out.push({ path: `${OPT}.cover_image_url`, message: 'a Pinterest video pin needs a cover image: platform_options.pinterest.cover_image_url or cover_key_frame_sec' });
    if (o.cover_image_url !== undefined && o.cover_key_frame_sec !== undefined) out.push({ path: `${OPT}.cover_key_frame_sec`, message: 'give cover_image_url or cover_key_frame_sec, not both' });
  } else {
    if (o.cover_image_url !== undefined) out.push({ path: `${OPT}.cover_image_url`, message: 'cover_image_url applies to video pins only (type video_pin)' });
    if (o.cover_key_frame_sec !== undefined) out.push({ path: `${OPT}.cover_key_frame_sec`, message: 'cover_key_frame_sec applies to video pins only (type video_pin)' });
  }
  input.media.forEach((m, i) => out.push(...checkItem(m, `media_urls.${i}`, input.type)));
  return out;
}

function checkItem(m: ValidationMedia, path: string, type: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const mime = m.mimeType?.toLowerCase() ?? null;
  if (type === 'pin') {
    if (m.kind === 'video') out.push({ path, message: 'a video goes in a Pinterest video pin (type video_pin), not a pin' });
    else if (mime && !IMAGE_TYPES.has(mime)) out.push({ path, message: `Pinterest pins take JPEG or PNG images here, not ${mime}` });
    if (m.size !== null && m.size > PINTEREST_MEDIA_LIMITS.imageMaxBytes) out.push({ path, message: `Pinterest takes images up to 20 MB; this one is ${mb(m.size)}` });
    return out;
  }
  if (mime && !VIDEO_TYPES.has(mime)) out.push({ path, message: `Pinterest video pins take MP4 or MOV, not ${mime}` });
  if (m.size !== null && m.size > PINTEREST_MEDIA_LIMITS.videoMaxBytes) out.push({ path, message: `Pinterest takes videos up to 2 GB; this one is ${mb(m.size)}` });
  const d = m.durationSec;
  if (d !== null && d !== undefined && (d < PINTEREST_MEDIA_LIMITS.videoMinSec || d > PINTEREST_MEDIA_LIMITS.videoMaxSec)) {
    out.push({ path, message: `Pinterest takes videos of 4 seconds to 15 minutes; this one lasts ${Math.round(d)} s` });
  }
  return out;
}
