import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule } from '../platform-module';
import { createYoutubeAnalytics } from './analytics';
import { youtubeSettings } from './settings';
import { createYoutubeAdapter } from './adapter';
import { createYoutubeComments } from './comments';
import { createYoutubeRemover } from './remove';
import { youtubeTokenRefresher } from './refresh-token';
import { connectYoutube, type YoutubeConnectOptions } from './connect';
import { youtubeSandbox } from './sim/sandbox';

/** YouTube: Data API v3 resumable uploads, Google OAuth with PKCE. */
export const youtube: PlatformModule = {
  platform: 'youtube',
  limits: PLATFORM_INFO.youtube,
  createAdapter: (config) => createYoutubeAdapter({ defaultPrivacyStatus: config.youtubePrivacyStatus }),
  simulator: youtubeSandbox,
  // The user's Google client id/secret may come as --app-id/--app-secret too.
  connect: (o, io, deps) =>
    connectYoutube({ ...(o as unknown as YoutubeConnectOptions), clientId: (o.clientId as string | undefined) ?? o.appId, clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret }, io, deps),
  refresher: youtubeTokenRefresher,
  settings: youtubeSettings,
  comments: { supported: true, create: () => createYoutubeComments() },
  deletion: { supported: true, createRemover: () => createYoutubeRemover() },
  analytics: () => createYoutubeAnalytics(),
};
