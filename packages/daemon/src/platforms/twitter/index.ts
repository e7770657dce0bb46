import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule } from '../platform-module';
import { createTwitterAnalytics } from './analytics';
import { createTwitterAdapter } from './adapter';
import { createTwitterComments } from './comments';
import { createTwitterRemover } from './remove';
import { twitterTokenRefresher } from './refresh-token';
import { connectTwitter, type TwitterConnectOptions } from './connect';
import { twitterSandbox } from './sim/sandbox';

/** X: API v2 posts with chunked media upload, OAuth 2.0 with PKCE (or pasted OAuth 1.0a tokens). */
export const twitter: PlatformModule = {
  platform: 'twitter',
  limits: PLATFORM_INFO.twitter,
  createAdapter: () => createTwitterAdapter(),
  simulator: twitterSandbox,
  // The user's client id/secret may come as --app-id/--app-secret too.
  connect: (o, io, deps) =>
    connectTwitter({ ...(o as unknown as TwitterConnectOptions), clientId: (o.clientId as string | undefined) ?? o.appId, clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret }, io, deps),
  refresher: twitterTokenRefresher,
  deletion: { supported: true, createRemover: () => createTwitterRemover() },
  comments: { supported: true, create: () => createTwitterComments() },
  analytics: () => createTwitterAnalytics(),
};
