import type { ErrorDetail } from '@socialpub/core';
import type { ValidationInput } from '../adapter';
import { codePoints, hashtags, mentions } from '../meta/text-rules';
import { captionPath, countIssue, mediaIssues, MB, reachability, typePath } from '../meta/validation-kit';

export interface InstagramRules {
  /** Hashtags per caption. Default 5: the app's cap since Dec 2025 (the API docs still say 30). */
  maxHashtags?: number;
}

const JPEG = ['image/jpeg'] as const;

/** Instagram's rules (docs/reference/platforms.md §1.2, §1.3, §0.2) for one target. */
export function validateInstagram(input: ValidationInput, rules: InstagramRules = {}): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const maxTags = rules.maxHashtags ?? 5;
  const caption = input.caption ?? '';
  if (input.type === 'story') {
    // Stories carry no caption through the API; it is ignored, not an error.
  } else {
    const len = codePoints(caption);
    if (len > 2200) out.push({ path: captionPath('instagram'), message: `Instagram captions may have at most 2200 characters; this one has ${len}.` });
    const tags = hashtags(caption).length;
    if (tags > maxTags) out.push({ path: captionPath('instagram'), message: `Instagram allows at most ${maxTags} hashtags per post; this caption has ${tags}.` });
    const ats = mentions(caption).length;
    if (ats > 20) out.push({ path: captionPath('instagram'), message: `Instagram allows at most 20 @-mentions per caption; this one has ${ats}.` });
  }
  switch (input.type) {
    case 'feed':
      out.push(...countIssue(input, 1, 10, 'feed'));
      if (input.media.length === 1) out.push(...mediaIssues(input, { image: { maxBytes: 8 * MB, mimeTypes: JPEG }, video: { maxBytes: 300 * MB, minSec: 3, maxSec: 900 } }, 'feed'));
      else out.push(...mediaIssues(input, { image: { maxBytes: 8 * MB, mimeTypes: JPEG }, video: { maxBytes: 300 * MB, minSec: 3, maxSec: 60 } }, 'carousel'));
      break;
    case 'story':
      out.push(...countIssue(input, 1, 10, 'stories'));
      out.push(...mediaIssues(input, { image: { maxBytes: 8 * MB, mimeTypes: JPEG }, video: { maxBytes: 100 * MB, minSec: 3, maxSec: 60 } }, 'story'));
      break;
    case 'reels':
      out.push(...countIssue(input, 1, 1, 'reels'));
      out.push(...mediaIssues(input, { video: { maxBytes: 300 * MB, minSec: 3, maxSec: 900 } }, 'reels'));
      break;
    default:
      out.push({ path: typePath('instagram'), message: `Instagram has no content type "${input.type}"; use feed, story or reels.` });
  }
  out.push(...reachability(input));
  return out;
}
