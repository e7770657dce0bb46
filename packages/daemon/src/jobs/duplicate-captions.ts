import { parseAccountKey, type Platform, type PublishRequest, type Warning } from '@socialpub/core';

/**
 * Platforms that refuse a post identical to an earlier one: X answers 403 "duplicate
 * content" on identical text, Facebook error 506 "duplicate post" (docs/reference/platforms.md).
 */
export const REFUSES_DUPLICATES: readonly Platform[] = ['twitter', 'facebook'];

/** Warnings for a series whose occurrences would repeat one caption on such a platform. */
export function repeatedCaptionWarnings(req: PublishRequest, occurrences: number): Warning[] {
  if (occurrences < 2) return [];
  return req.platforms
    .filter((key) => REFUSES_DUPLICATES.some((p) => p === parseAccountKey(key)?.platform))
    .map((platform) => ({
      path: req.platform_captions?.[platform] !== undefined ? `platform_captions.${platform}` : 'caption',
      code: 'duplicate_caption',
      platform,
      message: `${platform} refuses a post identical to an earlier one: all ${occurrences} occurrences repeat this caption, so the repeats will likely fail there; vary the caption per occurrence or leave ${platform} out`,
    }));
}
