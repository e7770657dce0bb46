import type { ErrorDetail, FacebookOptions } from '@socialpub/core';
import type { ValidationInput } from '../adapter';

/**
 * Which Facebook options fit the target (docs/reference/platforms.md §12.2): `link` makes a
 * link post (POST /{page-id}/feed without media); `place` goes on feed text, link and photo
 * posts (/feed and /photos). Neither exists for stories or reels.
 */
export function validateFacebookOptions(input: ValidationInput): ErrorDetail[] {
  const o = (input.options ?? {}) as FacebookOptions;
  const out: ErrorDetail[] = [];
  if (input.type !== 'feed') {
    for (const field of ['link', 'place'] as const) {
      if (o[field] !== undefined) out.push({ path: `platform_options.facebook.${field}`, message: `${field} is not available for Facebook ${input.type === 'story' ? 'stories' : input.type} (feed posts only)` });
    }
    return out;
  }
  if (o.link !== undefined && input.media.length > 0) out.push({ path: 'platform_options.facebook.link', message: 'link makes a link post, which carries no media; leave out media_urls or link' });
  if (o.place !== undefined && input.media.some((m) => m.kind === 'video')) {
    out.push({ path: 'platform_options.facebook.place', message: 'place is not available for video posts (text, link and photo posts only)' });
  }
  return out;
}
