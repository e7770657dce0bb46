import type { SettingReader } from '../platform-module';

declare module '../platform-module' {
  interface PlatformsConfig {
    /** YouTube privacy status for connections whose meta sets none (SOCIALPUB_YOUTUBE_PRIVACY_STATUS; default public). */
    youtubePrivacyStatus?: string;
  }
}

export const youtubeSettings = (read: SettingReader) => ({ youtubePrivacyStatus: read('SOCIALPUB_YOUTUBE_PRIVACY_STATUS') });
