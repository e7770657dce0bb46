import type { SettingReader } from '../platform-module';

declare module '../platform-module' {
  interface PlatformsConfig {
    /** TikTok privacy level for connections whose meta sets none (SOCIALPUB_TIKTOK_PRIVACY_LEVEL). */
    tiktokPrivacyLevel?: string;
    /** Whether the TikTok app passed TikTok's audit (SOCIALPUB_TIKTOK_AUDITED=1; unaudited apps may only post SELF_ONLY). */
    tiktokAudited?: boolean;
  }
}

export const tiktokSettings = (read: SettingReader) => ({ tiktokPrivacyLevel: read('SOCIALPUB_TIKTOK_PRIVACY_LEVEL'), tiktokAudited: read('SOCIALPUB_TIKTOK_AUDITED') === '1' });
