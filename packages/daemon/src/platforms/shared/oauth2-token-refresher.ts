import type { Platform } from '@socialpub/core';
import type { TokenEnv, TokenRefresher } from './token-env';
import { TokenRefreshError } from './token-refresh-error';
import type { Credentials, TokenUpdate } from '../adapter';

/**
 * The TokenRefresher of an OAuth 2.0 platform (X, TikTok, YouTube, LinkedIn, Pinterest):
 * `request` is the platform's refresh_token grant. Publishing refreshes these short tokens
 * on demand (ensureAccessToken); the background round keeps the refresh chains alive (X
 * and TikTok refresh tokens die unused, Google's after 6 months) by refreshing a
 * connection once its token is `minAgeMs` old. Refresh tokens rotate, so both share the
 * in-process refresh (refreshShared) and a rotated token is never spent twice.
 */
export function oauth2TokenRefresher(platform: Platform, minAgeMs: number, request: (creds: Credentials, env: TokenEnv) => Promise<TokenUpdate>): TokenRefresher {
  return {
    platform,
    // OAuth 1.0a tokens (X's oauth_token) never expire and are left alone.
    applies: (c) => Boolean(c.secrets.refresh_token) && !c.secrets.oauth_token,
    minAgeMs,
    rotating: true,
    refresh: request,
    isTransient: (err) => !(err instanceof TokenRefreshError && err.permanent),
  };
}
