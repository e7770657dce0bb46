import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule } from '../platform-module';
import { createTiktokAnalytics } from './analytics';
import { tiktokSettings } from './settings';
import { createTiktokAdapter } from './adapter';
import { tiktokTokenRefresher } from './refresh-token';
import { connectTiktok, type TiktokConnectOptions } from './connect';
import { tiktokSandbox } from './sim/sandbox';

/** TikTok: Content Posting API direct post (pushed chunks or pulled URL), status polling. */
export const tiktok: PlatformModule = {
  platform: 'tiktok',
  limits: PLATFORM_INFO.tiktok,
  createAdapter: (config) =>
    createTiktokAdapter({
      defaults: { ...(config.tiktokPrivacyLevel ? { privacy_level: config.tiktokPrivacyLevel } : {}), ...(config.tiktokAudited ? { audited: true } : {}) },
    }),
  simulator: tiktokSandbox,
  // The user's client key/secret may come as --app-id/--app-secret too.
  connect: (o, io, deps) =>
    connectTiktok({ ...(o as unknown as TiktokConnectOptions), clientKey: (o.clientKey as string | undefined) ?? o.appId, clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret }, io, deps),
  refresher: tiktokTokenRefresher,
  // docs/reference/platforms.md §12.5.4: the Content Posting API has no deletion endpoint.
  settings: tiktokSettings,
  deletion: { supported: false, reason: 'TikTok offers no API to delete a published post; delete it in the TikTok app' },
  // The Display and Content Posting APIs list no comments; the Research API's are for approved researchers only.
  comments: { supported: false, reason: 'TikTok offers no comment API to apps like socialpub (only to approved researchers); read and answer comments in the TikTok app' },
  analytics: () => createTiktokAnalytics(),
};
