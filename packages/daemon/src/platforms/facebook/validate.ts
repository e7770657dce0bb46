import type { ErrorDetail } from '@socialpub/core';
import type { ValidationInput } from '../adapter';
import { codePoints } from '../meta/text-rules';
import { captionPath, countIssue, mediaIssues, MB, typePath } from '../meta/validation-kit';

const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'] as const;

/**
 * Facebook Page rules (docs/reference/platforms.md §2.2, §2.3). socialpub uploads the bytes to Facebook,
 * so no public URL is needed.
 */
export function validateFacebook(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const caption = input.caption ?? '';
  const len = codePoints(caption);
  if (len > 63206) out.push({ path: captionPath('facebook'), message: `Facebook posts may have at most 63206 characters; this one has ${len}.` });
  const videos = input.media.filter((m) => m.kind === 'video').length;
  switch (input.type) {
    case 'feed':
      out.push(...countIssue(input, 0, 10, 'feed posts'));
      if (input.media.length === 0 && caption.trim() === '') out.push({ path: captionPath('facebook'), message: 'A Facebook post without media needs text.' });
      if (videos > 0 && input.media.length > 1) out.push({ path: 'media_urls', message: 'A Facebook feed post carries either photos or one video, not both.' });
      out.push(...mediaIssues(input, { image: { maxBytes: 4 * MB, mimeTypes: PHOTO_TYPES }, video: { maxBytes: 4096 * MB } }, 'feed posts'));
      break;
    case 'story':
      out.push(...countIssue(input, 1, 10, 'stories'));
      out.push(...mediaIssues(input, { image: { maxBytes: 10 * MB, mimeTypes: PHOTO_TYPES }, video: { maxBytes: 4096 * MB, maxSec: 60 } }, 'story'));
      break;
    case 'reels':
      out.push(...countIssue(input, 1, 1, 'reels'));
      out.push(...mediaIssues(input, { video: { maxBytes: 4096 * MB, minSec: 3, maxSec: 90 } }, 'reels'));
      break;
    default:
      out.push({ path: typePath('facebook'), message: `Facebook has no content type "${input.type}"; use feed, story or reels.` });
  }
  return out;
}
