import { metaSettings } from '../meta/settings';
import type { SettingReader } from '../platform-module';

declare module '../platform-module' {
  interface PlatformsConfig {
    /** Instagram hashtags per caption (SOCIALPUB_INSTAGRAM_MAX_HASHTAGS; default 5). */
    instagramMaxHashtags?: number;
  }
}

export function instagramSettings(read: SettingReader) {
  const hashtags = Number(read('SOCIALPUB_INSTAGRAM_MAX_HASHTAGS'));
  return { ...metaSettings(read), instagramMaxHashtags: Number.isFinite(hashtags) && hashtags > 0 ? hashtags : undefined };
}
