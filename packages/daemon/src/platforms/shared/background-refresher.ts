import type { Platform } from '@socialpub/core';
import type { Refresher } from '../platform-module';
import { refreshShared } from './ensure-access-token';
import { TokenRefreshError } from './token-refresh-error';
import type { TokenRefresher } from './token-env';

/**
 * An entry for the daemon's background TokenRefresher. Publishing refreshes these short
 * tokens on demand; the background round keeps the refresh chains alive (X and TikTok
 * refresh tokens die unused, Google's after 6 months) by refreshing a connection once its
 * token is `minAgeMs` old. It shares the in-process refresh with publishing targets, so a
 * rotating refresh token is never spent twice.
 */
export function backgroundRefresher(platform: Platform, refresher: TokenRefresher, minAgeMs: number): Refresher {
  return {
    platform,
    applies: (c) => Boolean(c.secrets.refresh_token) && !c.secrets.oauth_token,
    minAgeMs,
    refresh: (c, d) => refreshShared(c, refresher, { baseUrl: d.baseUrl, signal: d.signal, clock: d.clock }),
    isTransient: (err) => !(err instanceof TokenRefreshError && err.permanent),
  };
}
