import type { ErrorDetail } from '@socialpub/core';
import type { ValidationInput } from '../adapter';

export const TIKTOK_LIMITS = {
  maxBytes: 4 * 1024 * 1024 * 1024,
  /** The API's ceiling; each creator's own limit (often 3 minutes) comes from creator_info at publish time. */
  maxDurationSec: 600,
  minSide: 360,
  maxSide: 4096,
} as const;

const TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);

/** TikTok video rules beyond the core table (which asks for exactly one video and 2,200 UTF-16 units). */
export function validateTiktok(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
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
