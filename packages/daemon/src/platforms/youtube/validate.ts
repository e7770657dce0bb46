import type { ErrorDetail } from '@socialpub/core';
import type { ValidationInput } from '../adapter';

const MAX_BYTES = 256 * 1024 * 1024 * 1024;
const SHORTS_MAX_SEC = 180;

/**
 * YouTube rules beyond the core table (one video; description within 5,000 bytes): the
 * file type and size, and for `shorts` a vertical or square video of at most 3 minutes
 * when the dimensions and duration are known (YouTube classifies Shorts by exactly that).
 */
export function validateYoutube(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const m = input.media[0];
  if (input.media.length !== 1 || !m || m.kind === 'image') return out;
  const path = 'media_urls.0';
  const type = m.mimeType?.toLowerCase();
  if (type && !type.startsWith('video/') && type !== 'application/octet-stream') out.push({ path, message: `YouTube takes video files, not ${type}` });
  if (m.size !== null && m.size > MAX_BYTES) out.push({ path, message: 'YouTube takes videos up to 256 GB' });
  if (input.type === 'shorts') {
    if (m.width && m.height && m.width > m.height) out.push({ path, message: `A YouTube Short must be vertical or square; this video is ${m.width}×${m.height}` });
    if (m.durationSec && m.durationSec > SHORTS_MAX_SEC) out.push({ path, message: `A YouTube Short lasts at most 3 minutes; this video lasts ${Math.round(m.durationSec)} s` });
  }
  return out;
}
